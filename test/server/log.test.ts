import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/server/log.js';

function capture(level: 'debug' | 'info' = 'info') {
  const lines: string[] = [];
  const log = createLogger({ level, sink: (line) => lines.push(line), now: () => 0 });
  return { log, lines };
}

describe('the redacting logger', () => {
  it('never writes an API key, a webhook secret, a Bearer value or an OTP', () => {
    const { log, lines } = capture();
    log.info('calling with sk_live_abcDEF123 and Bearer sk_test_zzz', {
      otp: '123456',
      headers: { authorization: 'Bearer anything' },
      note: 'secret whsec_0123abcd rotated',
      nested: { apiKey: 'plain-looking-key' },
    });
    const text = lines.join('\n');
    for (const leaked of ['abcDEF123', 'sk_test_zzz', '123456', 'anything', '0123abcd', 'plain-looking-key']) {
      assert.ok(!text.includes(leaked), `leaked ${leaked} in ${text}`);
    }
  });

  it('keeps only the country code and the last two digits of phone numbers, also URL-encoded', () => {
    const { log, lines } = capture();
    log.info('lookup +2250700000001', { phoneNumber: '+22997000042', url: '/v1/corridors/available?phone=%2B22997000042' });
    const text = lines.join('\n');
    assert.ok(!text.includes('0700000001'));
    assert.ok(!text.includes('97000042'));
    assert.match(text, /42/);
  });

  it('writes one JSON line with the level, the time and the fields', () => {
    const { log, lines } = capture();
    log.warn('webhook refused', { reason: 'SIGNATURE_MISMATCH' });
    assert.deepEqual(JSON.parse(lines[0]!), { level: 'warn', time: '1970-01-01T00:00:00.000Z', msg: 'webhook refused', reason: 'SIGNATURE_MISMATCH' });
  });

  it('drops lines below the configured level', () => {
    const { log, lines } = capture('info');
    log.debug('noise');
    log.info('kept');
    assert.equal(lines.length, 1);
  });

  it('writes an error as its name and redacted message, not its stack', () => {
    const { log, lines } = capture();
    log.error('failed', { error: new Error('refused key sk_live_secret') });
    const entry = JSON.parse(lines[0]!) as { error: { name: string; message: string; stack?: string } };
    assert.equal(entry.error.name, 'Error');
    assert.ok(!entry.error.message.includes('sk_live_secret'));
    assert.equal(entry.error.stack, undefined);
  });
});
