/**
 * An option that cannot mean what it says is refused at start, from the environment and as an
 * option, with what to write instead (issue 40, finding 9): a token with whitespace, which no
 * `Authorization: Bearer` header can carry; a `MOMO_TRUST_PROXY` that is neither a count of proxies
 * a real chain has nor addresses and ranges in their usual forms (`1,2`, `1.2.3` and `10.1` were
 * read by ipaddr.js's inet_aton shorthands as 0.0.0.1, 1.2.0.3 and 10.0.0.1; `999` as a count that
 * reads the leftmost entry of X-Forwarded-For, the one a client writes).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompanionConfigError, companionOptionsFromEnv, createCompanion, createMemoryStore } from '../../src/server/index.js';
import { standaloneOptionsFromEnv } from '../../src/server/commands/standalone-options.js';
import { silentLogger } from '../../src/server/log.js';

const env = {
  MOMO_BASE_URL: 'https://api.example',
  MOMO_API_KEY: 'sk_live_x',
  MOMO_WEBHOOK_SECRETS: 'whsec_a',
  MOMO_PUBLIC_URL: 'https://shop.example/momo',
};
const options = {
  baseUrl: 'https://api.example',
  apiKey: 'sk_live_x',
  webhookSecrets: ['whsec_a'],
  publicUrl: 'https://shop.example/momo',
  allowedOrigins: ['https://shop.example'],
  setupChecksAtStart: false,
  log: silentLogger,
  store: createMemoryStore(),
};
const token = '0123456789abcdef0123456789abcdef';

function refusedEnv(extra: Record<string, string>): CompanionConfigError {
  try {
    companionOptionsFromEnv({ ...env, ...extra });
  } catch (error) {
    assert.ok(error instanceof CompanionConfigError, `got ${String(error)}`);
    return error;
  }
  assert.fail(`${JSON.stringify(extra)} was accepted`);
}

const refusedOption = (extra: Record<string, unknown>, message: RegExp) =>
  assert.throws(() => createCompanion({ ...options, ...extra } as never), (error: unknown) => error instanceof CompanionConfigError && message.test(error.message));

describe('MOMO_TRUST_PROXY and trustProxy that cannot mean what they say', () => {
  it('refuses an entry ipaddr.js would read as a shorthand address (1,2 / 1.2.3 / 10.1 / 10.1/8), naming it', () => {
    for (const text of ['1,2', '1.2.3', '10.1', '10.1/8', '127.0.0.1,010.0.0.1', '10.0.0.0/33', '10.0.0.0/8/8', '::1/129']) {
      const error = refusedEnv({ MOMO_TRUST_PROXY: text });
      assert.deepEqual(error.problems.map((problem) => problem.variable), ['MOMO_TRUST_PROXY'], text);
      assert.match(error.message, /is neither an IP address nor a range \(an IPv4 address has four decimal parts.*set the number of proxies in front \(0 to 10/, text);
      refusedOption({ trustProxy: text.split(',') }, /option trustProxy is malformed.*how many proxies of yours are in front \(0 to 10\)/);
    }
  });

  it('refuses a count no chain of proxies has (999, 11), and takes 0 to 10', () => {
    for (const text of ['999', '11']) {
      assert.match(refusedEnv({ MOMO_TRUST_PROXY: text }).message, new RegExp(`MOMO_TRUST_PROXY is ${text}, more proxies than any real chain`));
      refusedOption({ trustProxy: Number(text) }, /option trustProxy is malformed: got number/);
    }
    for (const count of [0, 1, 10]) assert.equal(companionOptionsFromEnv({ ...env, MOMO_TRUST_PROXY: String(count) }).trustProxy, count);
  });

  it('still takes addresses and ranges in their usual forms', () => {
    const entries = ['127.0.0.1', '10.0.0.0/8', '::1', '2a02:1810::/32', '::ffff:10.0.0.0/104'];
    assert.deepEqual(companionOptionsFromEnv({ ...env, MOMO_TRUST_PROXY: entries.join(',') }).trustProxy, entries);
  });
});

describe('limits that cannot mean what they say', () => {
  it('refuses a burst of 0, which would refuse every call for good', () => {
    refusedOption({ limits: { perAddress: { burst: 0, perMinute: 120 } } }, /option limits is malformed \(at limits\.perAddress\.burst\).*a burst of 0 would refuse every call/);
  });
});

describe('tokens no Authorization: Bearer header can carry', () => {
  it('refuses a metrics token with whitespace, from the environment and as an option', async () => {
    assert.match(refusedEnv({ MOMO_METRICS_TOKEN: `${token} ${token}` }).message, /MOMO_METRICS_TOKEN contains whitespace/);
    refusedOption({ metricsToken: `${token} ${token}` }, /metricsToken/);
  });

  it('refuses a server secret with whitespace, from the environment and as an option', () => {
    assert.throws(() => standaloneOptionsFromEnv({ ...env, MOMO_SERVER_SECRET: `${token} ${token}` }), /MOMO_SERVER_SECRET\) contains whitespace/);
    refusedOption({ serverSecret: `${token}\t${token}` }, /serverSecret \(MOMO_SERVER_SECRET\) contains whitespace/);
  });

  it('refuses an API key with whitespace inside, from the environment and as an option', () => {
    assert.match(refusedEnv({ MOMO_API_KEY: 'sk_live_x sk_live_y' }).message, /MOMO_API_KEY contains whitespace/);
    refusedOption({ apiKey: 'sk_live_x\nsk_live_y' }, /option apiKey is malformed.*as one word/);
  });
});
