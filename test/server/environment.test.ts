/**
 * Issue 11 §1 and issue 13 §6: the environment a merchant (or `npm start`) configures the companion
 * with. A local stand-in of the service on loopback http is possible with one switch, honoured only
 * on loopback; every malformed variable is named at once, with what to write instead.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanionConfigError, companionOptionsFromEnv, createCompanion } from '../../src/server/index.js';
import { silentLogger } from '../../src/server/log.js';

const local = {
  MOMO_BASE_URL: 'http://127.0.0.1:4010',
  MOMO_API_KEY: 'sk_test_sandbox',
  MOMO_WEBHOOK_SECRETS: 'whsec_sandbox',
  MOMO_PUBLIC_URL: 'http://127.0.0.1:3000/momo',
};

function configError(env: Record<string, string>): CompanionConfigError {
  try {
    companionOptionsFromEnv(env);
  } catch (error) {
    assert.ok(error instanceof CompanionConfigError, `got ${String(error)}`);
    return error;
  }
  assert.fail('the configuration was accepted');
}

describe('MOMO_ALLOW_INSECURE_LOCAL_URLS', () => {
  it('lets a companion start against a local stand-in on loopback http', async () => {
    const options = companionOptionsFromEnv({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1' });
    assert.equal(options.allowInsecureLocalUrls, true);
    const { port: _port, host: _host, ...companionOptions } = options;
    const companion = createCompanion({ ...companionOptions, setupChecksAtStart: false, log: silentLogger });
    await companion.close();
  });

  it('without it, a loopback http public URL is refused with the switch to set', () => {
    const error = configError(local);
    assert.equal(error.code, 'ENVIRONMENT');
    assert.deepEqual(error.problems.map((problem) => problem.variable), ['MOMO_PUBLIC_URL']);
    assert.match(error.message, /MOMO_ALLOW_INSECURE_LOCAL_URLS=1/);
    assert.match(error.message, /only posts notifications to https URLs on public addresses/);
    assert.doesNotMatch(error.message, /§/);
  });

  it('is refused when the public URL is not on this machine (never in production)', () => {
    for (const publicUrl of ['https://shop.example/momo', 'http://192.168.1.5:3000/momo']) {
      const error = configError({ ...local, MOMO_PUBLIC_URL: publicUrl, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1' });
      assert.deepEqual(error.problems.map((problem) => problem.variable), ['MOMO_ALLOW_INSECURE_LOCAL_URLS'], publicUrl);
      assert.match(error.message, /not a loopback address/);
    }
  });

  it('accepts localhost and [::1], and refuses a value that is neither on nor off', () => {
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_PUBLIC_URL: 'http://localhost:3000/momo', MOMO_ALLOW_INSECURE_LOCAL_URLS: 'true' }).allowInsecureLocalUrls, true);
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_PUBLIC_URL: 'http://[::1]:3000/momo', MOMO_ALLOW_INSECURE_LOCAL_URLS: '1' }).allowInsecureLocalUrls, true);
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_PUBLIC_URL: 'https://shop.example/momo', MOMO_ALLOW_INSECURE_LOCAL_URLS: '0' }).allowInsecureLocalUrls, undefined);
    const error = configError({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: 'please' });
    assert.ok(error.problems.some((problem) => problem.variable === 'MOMO_ALLOW_INSECURE_LOCAL_URLS'));
  });
});

describe('malformed variables', () => {
  it('are all named at once, each with what to write', () => {
    const error = configError({
      MOMO_BASE_URL: 'api.example.com',
      MOMO_API_KEY: 'sk_live_x',
      MOMO_WEBHOOK_SECRETS: ' , ',
      MOMO_PUBLIC_URL: 'shop',
      MOMO_ALLOWED_ORIGINS: 'https://shop.example/checkout',
      PORT: 'eighty',
    });
    assert.equal(error.code, 'ENVIRONMENT');
    assert.deepEqual(error.problems.map((problem) => problem.variable).sort(), ['MOMO_ALLOWED_ORIGINS', 'MOMO_BASE_URL', 'MOMO_PUBLIC_URL', 'MOMO_WEBHOOK_SECRETS', 'PORT']);
    for (const problem of error.problems) assert.ok(error.message.includes(problem.message), `${problem.variable} is in the message`);
    assert.match(error.message, /e\.g\. https:\/\/api\.example\.com/);
  });

  it('says to drop a /v1 suffix from MOMO_BASE_URL', () => {
    const error = configError({ ...local, MOMO_BASE_URL: 'https://api.example.com/v1/', MOMO_PUBLIC_URL: 'https://shop.example/momo' });
    assert.deepEqual(error.problems.map((problem) => problem.variable), ['MOMO_BASE_URL']);
    assert.match(error.message, /ends in \/v1: give the service's root \(https:\/\/api\.example\.com\)/);
  });

  it('names the missing ones together with the malformed ones', () => {
    const error = configError({ MOMO_BASE_URL: 'https://api.example.com/v1', PORT: '99999' });
    assert.deepEqual(error.problems.map((problem) => problem.variable).sort(), ['MOMO_API_KEY', 'MOMO_BASE_URL', 'MOMO_PUBLIC_URL', 'MOMO_WEBHOOK_SECRETS', 'PORT']);
  });
});

describe('createCompanion', () => {
  it('refuses an http public URL with a code and the local switch in words', () => {
    assert.throws(
      () => createCompanion({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', webhookSecrets: [], publicUrl: 'http://127.0.0.1:3000/momo', allowedOrigins: [], setupChecksAtStart: false }),
      (error: unknown) => error instanceof CompanionConfigError && error.code === 'INSECURE_PUBLIC_URL' && /MOMO_ALLOW_INSECURE_LOCAL_URLS=1/.test(error.message) && !/§/.test(error.message),
    );
  });
});

describe('MOMO_TRUST_PROXY', () => {
  it('takes a count of proxies, or their addresses and ranges', () => {
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1', MOMO_TRUST_PROXY: '1' }).trustProxy, 1);
    assert.deepEqual(companionOptionsFromEnv({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1', MOMO_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1']);
    assert.equal(companionOptionsFromEnv({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1' }).trustProxy, undefined);
  });

  it('refuses an entry that is neither, saying what to write', () => {
    const error = configError({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1', MOMO_TRUST_PROXY: '127.0.0.1,nginx' });
    assert.deepEqual(error.problems.map((problem) => problem.variable), ['MOMO_TRUST_PROXY']);
    assert.match(error.message, /"nginx" is neither an IP address nor a range/);
  });
});

describe('payment links: MOMO_SHOP_NAME, MOMO_SHOP_LOGO_URL, MOMO_ELEMENT_ASSETS_DIR', () => {
  it("give the links' pages their shop, logo and element files", () => {
    const options = companionOptionsFromEnv({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1', MOMO_SHOP_NAME: 'Maison Adjoa', MOMO_SHOP_LOGO_URL: 'https://shop.example/logo.png', MOMO_ELEMENT_ASSETS_DIR: '/srv/momo/browser' });
    assert.equal(options.shopName, 'Maison Adjoa');
    assert.equal(options.shopLogoUrl, 'https://shop.example/logo.png');
    assert.equal(options.elementAssetsDir, '/srv/momo/browser');
  });

  it('refuses a logo that is not an https URL, saying what to write', () => {
    const error = configError({ ...local, MOMO_ALLOW_INSECURE_LOCAL_URLS: '1', MOMO_SHOP_LOGO_URL: 'http://shop.example/logo.png' });
    assert.deepEqual(error.problems.map((problem) => problem.variable), ['MOMO_SHOP_LOGO_URL']);
    assert.match(error.message, /is not an https URL: give the address of your logo/);
  });
});
