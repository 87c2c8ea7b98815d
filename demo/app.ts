/**
 * The demo store's routes as one Web-standard `(Request) => Response`: the checkout page, its
 * static files, the companion under its mount path and, with the sandbox, the sandbox's own routes
 * on the same origin (see start-demo.ts for why).
 */
import type { Companion, RequestContext } from '../src/server/index.js';
import { CheckoutError } from '../src/server/index.js';
import { isSandboxPath, type Sandbox } from '../src/sandbox/index.js';
import { assetUrl, compressPages, serveAsset, type StaticAsset } from './assets.js';
import { demoCsp } from './csp.js';
import { createOrderBook, newVisitorId, visitorFrom, visitorSetCookie, type OrderBook } from './order-book.js';
import { orderFromQuery, orderQuery, type DemoOrder } from './order.js';
import { checkoutPage, orderNotFoundPage, problemPage, type ServiceDescription } from './page.js';
import { languagesInFiles } from '../src/contract/languages.js';

/** `?lang=`: English, or a language whose file the demo serves (French, Portuguese, Swahili, Arabic). */
export type DemoLanguage = 'en' | (typeof languagesInFiles)[number];
function demoLanguage(asked: string | null): DemoLanguage {
  return (languagesInFiles as readonly string[]).includes(asked ?? '') ? (asked as DemoLanguage) : 'en';
}
const langQuery = (lang: DemoLanguage): string => (lang === 'en' ? '' : `&lang=${lang}`);

export type { StaticAsset };

export interface DemoAppDeps {
  companion: Companion;
  /** e.g. `/momo` (no trailing slash). */
  mountPath: string;
  /** The in-process sandbox, served on this origin; null against the real service. */
  sandbox: Sandbox | null;
  /** The sandbox's fixed OTP, listed on the page. */
  sandboxOtp: string;
  /** `/assets/<name>` → file. */
  assets: ReadonlyMap<string, StaticAsset>;
  service: ServiceDescription;
  /** Origin the payer's browser comes back to after an authorisation page (the public one). */
  publicOrigin: string;
  log: (line: string) => void;
  /**
   * Tests only: runs before the companion sees a webhook (given its raw body) and may hold it, as a
   * slow network or a busy service would, to show what the payer sees in the meantime.
   */
  beforeWebhook?: ((rawBody: string) => Promise<void>) | undefined;
  /** The shop's orders per visitor (default: a new one in memory). */
  orders?: OrderBook;
}


const pageHeaders = (): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': demoCsp(),
  // Issue 32: not `no-store`, which keeps the page out of the back/forward cache (a payer who
  // follows a link and comes back would reload the checkout). The page carries its order's checkout
  // token, a bearer for that one order that expires with it: `private` keeps it out of every shared
  // cache (proxies, CDNs), and `no-cache` makes the browser ask again before it reuses a copy for
  // a new visit or a reload; only back/forward restores the live page it already had in memory.
  'cache-control': 'private, no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
});

/**
 * The checkout's public view, as the element's first request would get it, asked of the companion
 * in-process: rendered into the page, it saves the payer that round trip (issue 10). Null (the
 * element then asks itself) when the companion cannot answer now.
 */
async function embeddedView(deps: DemoAppDeps, url: URL, token: string): Promise<string | null> {
  const response = await deps.companion.fetch(new Request(`${url.origin}${deps.mountPath}/checkout`, { headers: { authorization: `Bearer ${token}` } }));
  return response.ok ? response.text() : null;
}

export function createDemoApp(deps: DemoAppDeps): (request: Request, context?: RequestContext) => Promise<Response> {
  const html = (body: string, status = 200) => new Response(body, { status, headers: pageHeaders() });

  const orders = deps.orders ?? createOrderBook();

  async function checkoutToken(order: DemoOrder, lang: DemoLanguage): Promise<string> {
    const { token } = await deps.companion.createCheckout({
      orderId: order.orderId,
      amount: order.amount,
      currencyCode: order.currencyCode,
      // After an approval page the payer lands on this same order (the companion adds momo_return
      // and momo_order), and the element resumes from its token.
      returnUrl: `${deps.publicOrigin}/?${orderQuery(order)}${langQuery(lang)}`,
    });
    return token;
  }

  async function orderPage(order: DemoOrder, token: string, lang: DemoLanguage, url: URL): Promise<Response> {
    const address = `/?${orderQuery(order)}${langQuery(lang)}`;
    const response = html(
      checkoutPage({
        order,
        token,
        address,
        checkoutView: await embeddedView(deps, url, token),
        endpoint: deps.mountPath,
        lang,
        service: deps.service,
        testNumbers: deps.sandbox ? deps.sandbox.control.testNumbers() : null,
        otp: deps.sandboxOtp,
        assetUrl: (name) => assetUrl(deps.assets, name),
      }),
    );
    response.headers.set('content-location', address);
    return response;
  }

  async function checkout(request: Request, url: URL): Promise<Response> {
    const lang = demoLanguage(url.searchParams.get('lang'));
    const visitor = visitorFrom(request.headers.get('cookie'));
    const orderId = url.searchParams.get('order')?.trim();
    try {
      if (orderId === undefined) {
        // A new order, as a shop's "place order" does: kept on the server for this visitor and
        // shown at once, with its own address in Content-Location, which the page's script puts in
        // the address bar (history.replaceState): a reload shows the same order (and its outcome)
        // instead of offering to pay a second time. Not a redirect: that would cost a payer on a
        // slow network a round trip before the page starts (issue 32).
        const parsed = orderFromQuery(url.searchParams);
        if (!parsed.ok) return html(problemPage(parsed.message, deps.service), 400);
        const token = await checkoutToken(parsed.order, lang); // refused orders are never placed
        const owner = visitor ?? newVisitorId();
        orders.add(owner, parsed.order);
        const response = await orderPage(parsed.order, token, lang, url);
        const secure = url.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
        if (visitor === null) response.headers.set('set-cookie', visitorSetCookie(owner, secure));
        return response;
      }
      // Only the visitor who placed the order sees it: its page carries the checkout's token.
      const order = orders.get(visitor, orderId);
      if (!order) return html(orderNotFoundPage(deps.service), 404);
      return await orderPage(order, await checkoutToken(order, lang), lang, url);
    } catch (error) {
      if (!(error instanceof CheckoutError)) throw error;
      return html(problemPage(error.message.replace(/^createCheckout: /, ''), deps.service), 400);
    }
  }

  const webhookPath = `${deps.mountPath}/webhook`;

  return compressPages(async function demoApp(incoming: Request, context?: RequestContext): Promise<Response> {
    let request = incoming;
    const url = new URL(request.url);
    const path = url.pathname;
    try {
      if (deps.beforeWebhook && request.method === 'POST' && path === webhookPath) {
        // The raw bytes go on untouched: the signature covers them (§6.3).
        const raw = new Uint8Array(await request.arrayBuffer());
        await deps.beforeWebhook(new TextDecoder().decode(raw));
        request = new Request(request.url, { method: 'POST', headers: request.headers, body: raw });
      }
      if (path === deps.mountPath || path.startsWith(`${deps.mountPath}/`)) return await deps.companion.fetch(request, context);
      if (deps.sandbox && isSandboxPath(path)) return await deps.sandbox.fetch(request);
      if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
      if (path === '/') return await checkout(request, url);
      const asset = path.startsWith('/assets/') ? deps.assets.get(path.slice('/assets/'.length)) : undefined;
      if (asset) return serveAsset(asset, request);
      // Browsers ask for it on their own; an empty answer keeps the console free of 404s.
      if (path === '/favicon.ico') return new Response(null, { status: 204 });
      return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    } catch (error) {
      deps.log(`demo: ${request.method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      return html(problemPage('The shop could not prepare this page. Try again in a moment.', deps.service), 500);
    }
  });
}
