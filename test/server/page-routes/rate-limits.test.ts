/**
 * Lookup, preview and pay are limited (issue 12, item 4): per checkout (a burst, then a rate), in
 * distinct numbers per checkout (a preview may assign a provider to a number durably), and per
 * client address, read from X-Forwarded-For only when the merchant says a proxy is in front.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveClientAddress } from '../../../src/server/page-routes/client-address.js';
import { createLimiter } from '../../../src/server/stores/memory/memory-limits.js';
import { startHarness, type Harness } from '../harness.js';

/** Valid Benin mobile numbers on the sandbox's push operator, none of them a scripted test number. */
const strangers = Array.from({ length: 10 }, (_, i) => `+22901960001${String(10 + i)}`);

describe('distinct numbers per checkout', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ setupChecksAtStart: false });
  });
  after(async () => h.close());

  it('forwards previews for a few numbers, then answers 429 TOO_MANY_NUMBERS without calling the service', async () => {
    const token = await h.checkout();
    const before = h.sandbox.control.previewCount();
    const answers: Array<{ status: number; code?: string }> = [];
    for (const phoneNumber of strangers) {
      const { status, body } = await h.json('/checkout/preview', { token, body: { phoneNumber, useWallet: false } });
      answers.push({ status, code: body.error?.code });
    }
    assert.deepEqual(answers.slice(0, 5).map((answer) => answer.status), [200, 200, 200, 200, 200]);
    assert.ok(answers.slice(5).every((answer) => answer.status === 429 && answer.code === 'TOO_MANY_NUMBERS'), JSON.stringify(answers.slice(5)));
    assert.equal(h.sandbox.control.previewCount() - before, 5, 'only the admitted numbers reached the service');
    // A number already tried still works (the payer goes back to it), for lookup and pay alike.
    assert.equal((await h.json('/checkout/lookup', { token, body: { phoneNumber: strangers[0] } })).status, 200);
    assert.equal((await h.json('/checkout/lookup', { token, body: { phoneNumber: strangers[9] } })).body.error.code, 'TOO_MANY_NUMBERS');
    assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber: strangers[9], useWallet: false } })).body.error.code, 'TOO_MANY_NUMBERS');
  });
});

describe('calls per checkout and per address', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      setupChecksAtStart: false,
      trustProxy: 1,
      limits: { perCheckout: { burst: 4, perMinute: 1 }, perAddress: { burst: 6, perMinute: 1 } },
    });
  });
  after(async () => h.close());
  const lookup = (token: string, address: string) =>
    h.json('/checkout/lookup', { token, headers: { 'x-forwarded-for': address }, body: { phoneNumber: strangers[0] } });

  it('lets a burst through, then answers 429 RATE_LIMITED with Retry-After', async () => {
    const token = await h.checkout();
    for (let i = 0; i < 4; i++) assert.equal((await lookup(token, '203.0.113.1')).status, 200);
    const response = await h.call('/checkout/lookup', { token, headers: { 'x-forwarded-for': '203.0.113.1' }, body: { phoneNumber: strangers[0] } });
    assert.equal(response.status, 429);
    assert.ok(Number(response.headers.get('retry-after')) >= 1);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'RATE_LIMITED');
  });

  it('limits one address across many checkouts, and not another address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await lookup(await h.checkout(), '198.51.100.7')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
    assert.equal((await lookup(await h.checkout(), '198.51.100.8')).status, 200);
  });
});

describe('the client address', () => {
  const request = (forwardedFor?: string) => new Request('http://shop.test/momo/checkout/lookup', { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

  it('ignores X-Forwarded-For unless trustProxy is set', () => {
    // (Documentation ranges such as 203.0.113.0/24 are not public unicast: real addresses here.)
    assert.equal(resolveClientAddress({}, request('8.8.8.8'), { clientAddress: '1.1.1.1' }), '1.1.1.1');
  });

  it('reads the entry the trusted proxies wrote, never one the client wrote further left', () => {
    assert.equal(resolveClientAddress({ trustProxy: 1 }, request('6.6.6.6, 203.0.113.9'), { clientAddress: '10.0.0.2' }), '203.0.113.9');
    assert.equal(resolveClientAddress({ trustProxy: 2 }, request('6.6.6.6, 203.0.113.9, 10.0.0.3'), { clientAddress: '10.0.0.2' }), '203.0.113.9');
    assert.equal(resolveClientAddress({ trustProxy: 1 }, request(), { clientAddress: '10.0.0.2' }), '10.0.0.2');
  });

  it('with a count of proxies, reads X-Forwarded-For only from a loopback or private socket, never from a client that reached it directly', () => {
    // The port reachable directly: a new X-Forwarded-For per request must not lift the limit.
    assert.equal(resolveClientAddress({ trustProxy: 1 }, request('6.6.6.6'), { clientAddress: '45.33.100.7' }), '45.33.100.7');
    assert.equal(resolveClientAddress({ trustProxy: 1 }, request('7.7.7.7'), { clientAddress: '45.33.100.7' }), '45.33.100.7');
    assert.equal(resolveClientAddress({ trustProxy: 1 }, request('203.0.113.9'), { clientAddress: '127.0.0.1' }), '203.0.113.9');
    assert.equal(resolveClientAddress({ trustProxy: 1 }, request('not-an-address'), { clientAddress: '127.0.0.1' }), '127.0.0.1', 'garbage is never a key');
  });

  it('with the proxies\' addresses, walks the chain past them only', () => {
    const trustProxy = ['127.0.0.1', '10.0.0.0/8'];
    assert.equal(resolveClientAddress({ trustProxy }, request('6.6.6.6, 203.0.113.9'), { clientAddress: '127.0.0.1' }), '203.0.113.9');
    assert.equal(resolveClientAddress({ trustProxy }, request('6.6.6.6, 203.0.113.9, 10.1.2.3'), { clientAddress: '::ffff:127.0.0.1' }), '203.0.113.9', 'IPv4-mapped sockets match');
    assert.equal(resolveClientAddress({ trustProxy }, request('6.6.6.6'), { clientAddress: '45.33.100.7' }), '45.33.100.7', 'an untrusted socket keeps its own address');
    assert.equal(resolveClientAddress({ trustProxy }, request('10.0.0.9'), { clientAddress: '127.0.0.1' }), '10.0.0.9', 'all trusted: the leftmost');
    assert.throws(() => resolveClientAddress({ trustProxy: ['nginx'] }, request(), { clientAddress: '127.0.0.1' }), /neither an IP address nor a range/);
  });

  it('does not limit by a private or loopback socket (a proxy) without trustProxy, nor without any address', () => {
    assert.equal(resolveClientAddress({}, request(), { clientAddress: '127.0.0.1' }), undefined);
    assert.equal(resolveClientAddress({}, request(), { clientAddress: '::ffff:10.1.2.3' }), undefined);
    assert.equal(resolveClientAddress({}, request(), undefined), undefined);
  });

  it('takes the merchant\'s clientAddress option over everything', () => {
    const options = { clientAddress: (r: Request) => r.headers.get('x-forwarded-for') ?? undefined, trustProxy: 3 };
    assert.equal(resolveClientAddress(options, request('203.0.113.5'), { clientAddress: '198.51.100.1' }), '203.0.113.5');
  });
});

describe('the token bucket', () => {
  it('allows a burst, refuses with the seconds to wait, and refills with time', async () => {
    let clock = 0;
    const limiter = createLimiter({ burst: 2, perMinute: 60 }, () => clock);
    assert.equal(await limiter.take('a'), 0);
    assert.equal(await limiter.take('a'), 0);
    assert.equal(await limiter.take('a'), 1);
    assert.equal(await limiter.take('b'), 0, 'keys are independent');
    clock += 1000;
    assert.equal(await limiter.take('a'), 0);
    assert.equal(await limiter.take('a'), 1);
  });

  it('stays bounded under a flood of keys', async () => {
    const limiter = createLimiter({ burst: 1, perMinute: 1 }, () => 0, 3);
    for (const key of ['a', 'b', 'c', 'd']) assert.equal(await limiter.take(key), 0);
    // "a" was forgotten (the least recently used): it starts with a full bucket again.
    assert.equal(await limiter.take('a'), 0);
    assert.equal(await limiter.take('d'), 60);
  });
});
