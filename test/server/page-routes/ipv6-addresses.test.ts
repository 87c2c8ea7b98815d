/**
 * IPv6 clients are limited per /64, not per address (issue 40, finding 7): one subscriber holds a
 * whole /64 and picks addresses in it at will. 6to4 and Teredo addresses are keyed by the IPv4 they
 * carry and reach the companion across the Internet, so they are never taken for a proxy of the
 * merchant's (whose `X-Forwarded-For` a count of proxies believes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveClientAddress } from '../../../src/server/page-routes/client-address.js';
import { startHarness, type Harness } from '../harness.js';

const request = (forwardedFor?: string) => new Request('http://shop.test/momo/checkout/lookup', { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
const key = (socket: string, options: Parameters<typeof resolveClientAddress>[0] = {}, forwardedFor?: string) => resolveClientAddress(options, request(forwardedFor), { clientAddress: socket });

// 45.33.100.7 inside 6to4 (2002:2d21:6407::/48) and inside Teredo (its last 32 bits inverted).
const sixToFour = '2002:2d21:6407:1::5';
const teredo = '2001:0:4136:e378:8000:63bf:d2de:9bf8';

describe('the key an address is limited under', () => {
  it('an IPv6 client: its /64, whichever address of it, from the socket or a trusted proxy', () => {
    assert.equal(key('2a02:1810:1:2::1'), '2a02:1810:1:2::/64');
    assert.equal(key('2a02:1810:1:2:abcd:ef01:2345:6789'), '2a02:1810:1:2::/64');
    assert.notEqual(key('2a02:1810:1:3::1'), key('2a02:1810:1:2::1'), 'the next /64 is someone else');
    assert.equal(key('127.0.0.1', { trustProxy: 1 }, '2a02:1810:1:2:ffff::77'), '2a02:1810:1:2::/64');
    assert.equal(key('127.0.0.1', { trustProxy: ['127.0.0.1'] }, '2a02:1810:1:2:ffff::78'), '2a02:1810:1:2::/64');
    assert.equal(key('10.0.0.2', { clientAddress: () => '2a02:1810:1:2::99' }), '2a02:1810:1:2::/64', "the merchant's own function too");
  });

  it('IPv4, IPv4-mapped IPv6, 6to4 and Teredo: the IPv4 address', () => {
    assert.equal(key('45.33.100.7'), '45.33.100.7');
    assert.equal(key('::ffff:45.33.100.7'), '45.33.100.7');
    assert.equal(key(sixToFour), '45.33.100.7');
    assert.equal(key(teredo), '45.33.100.7');
  });

  it('never believes the X-Forwarded-For of a 6to4 or Teredo socket with a count of proxies: it came across the Internet', () => {
    assert.equal(key(sixToFour, { trustProxy: 1 }, '6.6.6.6'), '45.33.100.7');
    assert.equal(key(teredo, { trustProxy: 1 }, '7.7.7.7'), '45.33.100.7');
    assert.equal(key(sixToFour, {}), '45.33.100.7', 'and limits it without trustProxy, as a public address');
  });
});

describe('IPv6 clients against the limits', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ setupChecksAtStart: false, trustProxy: 1, serverSecret: 'ipv6-limits-server-secret-0123456789abcdef', limits: { perAddress: { burst: 3, perMinute: 1 } } });
  });
  after(async () => h.close());

  it('the payer routes count one /64 as one client, whatever address of it each request comes from', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const token = await h.checkout();
      statuses.push((await h.call('/checkout/lookup', { token, headers: { 'x-forwarded-for': `2a02:1810:7:8::${i.toString(16)}` }, body: { phoneNumber: '+2290196000110' } })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const other = await h.call('/checkout/lookup', { token: await h.checkout(), headers: { 'x-forwarded-for': '2a02:1810:7:9::1' }, body: { phoneNumber: '+2290196000110' } });
    assert.equal(other.status, 200, 'another /64');
  });

  it('the console sign-in counts a /64 as one client, and a 6to4 socket by its IPv4 whatever it forwards', async () => {
    const signIn = (socket: string, forwardedFor?: string) =>
      h.companion.fetch(
        new Request(`${h.base}/console/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: new URL(h.base).origin, 'content-type': 'application/x-www-form-urlencoded', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
          body: new URLSearchParams({ secret: 'a guess' }).toString(),
        }),
        { clientAddress: socket },
      );
    const fromOneSlash64 = [];
    for (let i = 1; i <= 6; i++) fromOneSlash64.push((await signIn(`2a02:1810:5:6::${i}`)).status);
    assert.deepEqual(fromOneSlash64, [401, 401, 401, 401, 401, 429]);
    const fromSixToFour = [];
    for (let i = 1; i <= 6; i++) fromSixToFour.push((await signIn(`2002:2d21:6408::${i}`, `192.0.2.${i}`)).status);
    assert.deepEqual(fromSixToFour, [401, 401, 401, 401, 401, 429], 'a new X-Forwarded-For per request lifts nothing');
  });
});
