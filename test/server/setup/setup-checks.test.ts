import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { companionOptionsFromEnv, createCompanion, createMemoryStore, formatSetupChecks, runSetupChecks } from '../../../src/server/index.js';
import { isPublicUnicast } from '../../../src/server/setup/setup-checks.js';

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, log: () => {} });
});
after(async () => sandbox.close());

// A public unicast address (documentation ranges such as 203.0.113.0/24 count as reserved).
const publicResolver = async () => ['41.203.64.10'];

describe('setup checks (npx momo-checkout doctor)', () => {
  it('passes a good configuration, and warns that sk_test_ keys are live, pointing at the packaged sandbox', async () => {
    // A service that is not on this machine (its calls reach the sandbox underneath).
    const remote = 'https://api.example';
    const viaSandbox: typeof fetch = (input, init) => fetch(String(input instanceof Request ? input.url : input).replace(remote, sandbox.url), init);
    const checks = await runSetupChecks({ baseUrl: remote, apiKey: sandbox.apiKey, webhookSecrets: [sandbox.webhookSecret], publicUrl: 'https://shop.example/momo', resolveHost: publicResolver, fetch: viaSandbox });
    assert.deepEqual(checks.filter((check) => check.status === 'error'), []);
    const warning = checks.find((check) => check.status === 'warning' && /live/.test(check.message));
    assert.ok(warning, 'the sk_test_ warning');
    assert.match(warning.message, /npx momo-checkout sandbox/);
    assert.doesNotMatch(warning.message, /npm run sandbox|§/);
  });

  it("does not call the sandbox's own sk_test_ key live when the service is on this machine", async () => {
    const checks = await runSetupChecks({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, webhookSecrets: [sandbox.webhookSecret], publicUrl: 'https://shop.example/momo', resolveHost: publicResolver });
    assert.deepEqual(checks.filter((check) => check.name === 'API key mode'), []);
  });

  it('formats the checks as banner lines, one per check and a summary', async () => {
    const lines = formatSetupChecks(
      [
        { name: 'payment service', status: 'ok', message: 'answers' },
        { name: 'public URL', status: 'warning', message: 'local' },
        { name: 'webhook secrets', status: 'error', message: 'none' },
      ],
      { indent: '  ' },
    );
    assert.deepEqual(lines, [
      '  ok    payment service: answers',
      '  WARN  public URL: local',
      '  FAIL  webhook secrets: none',
      '  Setup: 1 problem(s) to fix before a payer can pay, 1 warning(s).',
    ]);
  });

  it('flags a refused key, a missing secret, an http URL', async () => {
    const checks = await runSetupChecks({ baseUrl: sandbox.url, apiKey: 'sk_live_wrong', webhookSecrets: [], publicUrl: 'http://shop.example/momo', resolveHost: publicResolver });
    const failed = Object.fromEntries(checks.filter((check) => check.status === 'error').map((check) => [check.name, check.message]));
    assert.match(failed['payment service']!, /MOMO_API_KEY/);
    assert.match(failed['webhook secrets']!, /MOMO_WEBHOOK_SECRETS/);
    assert.match(failed['public URL']!, /https/);
  });

  for (const address of ['127.0.0.1', '10.1.2.3', '192.168.1.10', '169.254.1.1', '::1', '::ffff:10.0.0.1', 'fe80::1', 'fc00::1']) {
    it(`flags a public URL resolving to ${address}`, async () => {
      const remote = 'https://api.example';
      const viaSandbox: typeof fetch = (input, init) => fetch(String(input instanceof Request ? input.url : input).replace(remote, sandbox.url), init);
      const checks = await runSetupChecks({ baseUrl: remote, apiKey: sandbox.apiKey, webhookSecrets: [sandbox.webhookSecret], publicUrl: 'https://shop.example/momo', resolveHost: async () => [address], fetch: viaSandbox });
      const check = checks.find((entry) => entry.name === 'public URL')!;
      assert.equal(check.status, 'error');
      assert.match(check.message, /public unicast/);
    });
  }

  it('against the sandbox on this machine (a staging host), an https public URL on a private address is a warning, not a failure', async () => {
    const checks = await runSetupChecks({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, webhookSecrets: [sandbox.webhookSecret], publicUrl: 'https://staging.shop.example/momo', resolveHost: async () => ['10.1.2.3'] });
    const check = checks.find((entry) => entry.name === 'public URL')!;
    assert.equal(check.status, 'warning');
    assert.match(check.message, /public unicast.*Fine against the sandbox on this machine.*not against the real service/);
  });

  it('knows public unicast addresses', () => {
    assert.equal(isPublicUnicast('41.203.64.10'), true);
    assert.equal(isPublicUnicast('2c0f:f248::1'), true);
    assert.equal(isPublicUnicast('::ffff:127.0.0.1'), false);
  });
});

describe('configuration', () => {
  it('reads the environment and names what is missing', () => {
    assert.throws(() => companionOptionsFromEnv({ MOMO_BASE_URL: 'https://api.example' }), /MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL/);
    const options = companionOptionsFromEnv({
      MOMO_BASE_URL: 'https://api.example',
      MOMO_API_KEY: 'sk_live_x',
      MOMO_WEBHOOK_SECRETS: 'whsec_a, whsec_b',
      MOMO_PUBLIC_URL: 'https://shop.example/momo',
    });
    assert.deepEqual(options.webhookSecrets, ['whsec_a', 'whsec_b']);
    assert.deepEqual(options.allowedOrigins, ['https://shop.example']);
  });

  it('refuses an http publicUrl unless it is the local sandbox', () => {
    const base = { baseUrl: sandbox.url, apiKey: sandbox.apiKey, webhookSecrets: [sandbox.webhookSecret], allowedOrigins: [], store: createMemoryStore(), setupChecksAtStart: false };
    assert.throws(() => createCompanion({ ...base, publicUrl: 'http://shop.example/momo' }), /https/);
    assert.throws(() => createCompanion({ ...base, publicUrl: 'http://127.0.0.1:8080/momo' }), /allowInsecureLocalUrls/);
    assert.ok(createCompanion({ ...base, publicUrl: 'http://127.0.0.1:8080/momo', allowInsecureLocalUrls: true }));
  });
});
