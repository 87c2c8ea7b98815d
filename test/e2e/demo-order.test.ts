/**
 * The demo's query-string order (issue 4 §2): `?amount=&currency=` set a new order on the SERVER,
 * and a wrong value is a message, not a throw. Then the order's own page (issue 11 §3, issue 12 §11).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { orderFromQuery, orderQuery } from '../../demo/order.js';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { silentLogger } from '../../src/server/log.js';

const parse = (query: string) => orderFromQuery(new URLSearchParams(query));

describe('demo order from the query string', () => {
  it('defaults to the shop basket of 5000 XOF, with item lines that add up to the total', () => {
    const result = parse('');
    assert.ok(result.ok);
    assert.equal(result.order.amount, '5000');
    assert.equal(result.order.currencyCode, 'XOF');
    assert.equal(result.order.lines.reduce((sum, line) => sum + Number(line.amount), 0), 5000);
  });

  it('takes the amount and currency as written (exact decimal string, upper-cased code)', () => {
    const result = parse('amount=12.50&currency=usd');
    assert.ok(result.ok);
    assert.equal(result.order.amount, '12.50');
    assert.equal(result.order.currencyCode, 'USD');
  });

  it('makes a new order id per load, and keeps the one given with ?order=', () => {
    const first = parse('');
    const second = parse('');
    assert.ok(first.ok && second.ok);
    assert.notEqual(first.order.orderId, second.order.orderId);
    const kept = parse('order=shop-42');
    assert.ok(kept.ok);
    assert.equal(kept.order.orderId, 'shop-42');
  });

  for (const [query, words] of [
    ['amount=abc', 'not a positive number'],
    ['amount=0', 'not a positive number'],
    ['amount=-5', 'not a positive number'],
    ['amount=1e3', 'not a positive number'],
    ['amount=1,000', 'not a positive number'],
    ['currency=X1', 'not a currency code'],
    ['order=<script>', 'order id may only hold'],
    ['expiry=0', 'seconds to wait'],
  ] as const) {
    it(`refuses ?${query} with a message that says what to write`, () => {
      const result = parse(query);
      assert.equal(result.ok, false);
      assert.ok(!result.ok && result.message.includes(words), !result.ok ? result.message : '');
    });
  }

  it("an order's own page is ?order=<id> alone: the shop keeps the amount on its server", () => {
    const custom = parse('amount=700&currency=XAF&expiry=5');
    assert.ok(custom.ok);
    assert.equal(orderQuery(custom.order), `order=${custom.order.orderId}`);
  });
});

/**
 * Issue 11 §3 and issue 12 §11, over HTTP: a new order is placed for the visitor (a cookie) and
 * shown at its own address, which a reload keeps; another visitor asking for that address sees
 * nothing of it, not even its token.
 */
describe('demo order page: kept across reloads, shown only to its visitor', () => {
  let demo: RunningDemo;
  before(async () => {
    // The page's script bundle plays no part here: an empty one spares a build.
    const bundle = { code: Buffer.from(''), gzipBytes: 0, buildMs: 0 };
    demo = await startDemo({ port: 0, bundle, log: () => {}, companionLog: silentLogger });
  });
  after(async () => demo?.close());

  const get = (path: string, cookie?: string) => fetch(`${demo.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const tokenIn = (html: string) => /<momo-checkout [^>]*token="([^"]+)"/.exec(html)?.[1];

  async function placeOrder(query = '', cookie?: string): Promise<{ location: string; cookie: string; orderId: string }> {
    const placed = await get(`/${query}`, cookie);
    assert.equal(placed.status, 200, 'a new order is shown at once (no redirect), its own address in Content-Location');
    await placed.arrayBuffer();
    const location = placed.headers.get('content-location')!;
    const orderId = new URL(location, demo.url).searchParams.get('order')!;
    const setCookie = placed.headers.get('set-cookie');
    return { location, orderId, cookie: cookie ?? setCookie!.split(';')[0]! };
  }

  it('places a new order, sets an HttpOnly SameSite=Lax visitor cookie, and shows it at once with its address ?order=<id> (no redirect)', async () => {
    const placed = await get('/?amount=12500&currency=XOF&lang=fr');
    assert.equal(placed.status, 200);
    const first = await placed.text();
    assert.match(first, /12,500/);
    const location = new URL(placed.headers.get('content-location')!, demo.url);
    assert.match(first, new RegExp(`<body data-address="${(location.pathname + location.search).replace(/[?&]/g, (c) => (c === '?' ? '\\?' : '&amp;'))}">`), 'demo.js puts the address in the address bar');
    assert.deepEqual([...location.searchParams.keys()], ['order', 'lang']);
    const cookie = placed.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^momo_demo_visitor=[\w-]{16,}; Path=\/; HttpOnly; SameSite=Lax$/);
    const page = await get(`${location.pathname}${location.search}`, cookie.split(';')[0]);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /12,500/, 'the amount placed, kept on the server');
  });

  it('a reload of the order page shows the same order with the same checkout, not a new one', async () => {
    const { location, cookie, orderId } = await placeOrder();
    const first = await (await get(location, cookie)).text();
    const again = await (await get(location, cookie)).text();
    assert.ok(tokenIn(first), 'the page carries the checkout token');
    assert.equal(tokenIn(again), tokenIn(first), 'the same checkout (and so its payment and outcome)');
    assert.ok(again.includes(orderId));
    assert.equal(new Set(demo.upstreamCalls.filter((call) => call.path === '/v1/pay-in').map((call) => call.orderId)).has(orderId), false);
  });

  it("another visitor asking for the order's address gets a 404 page with a way to a new order, and no token", async () => {
    const { location, orderId } = await placeOrder();
    for (const cookie of [undefined, 'momo_demo_visitor=someone-else-entirely-0000']) {
      const other = await get(location, cookie);
      assert.equal(other.status, 404);
      const html = await other.text();
      assert.equal(tokenIn(html), undefined, 'no checkout token');
      assert.doesNotMatch(html, /<momo-checkout/);
      assert.match(html, /Order not found/);
      assert.match(html, /<a href="\/">Start a new order<\/a>/);
      assert.ok(!html.includes(orderId), 'nothing of the order is shown');
    }
  });

  it('a visitor keeps its cookie for its next orders, each with its own address', async () => {
    const first = await placeOrder();
    const second = await get('/', first.cookie);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('set-cookie'), null, 'the visitor is known');
    await second.arrayBuffer();
    assert.notEqual(second.headers.get('content-location'), first.location);
  });

  it('an order the service could never pay is not placed: the message says why', async () => {
    const refused = await get('/?amount=10&currency=EUR');
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /serves no country in EUR/);
  });
});
