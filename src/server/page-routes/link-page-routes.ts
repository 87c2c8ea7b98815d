/**
 * `<publicUrl>/l/<linkId>`: a payment link's page (issue 44), for a payer who opened it from a chat
 * or a QR code. GET shows the shop, what is paid for and the amount (or a field for it); its form
 * POSTs back, which creates this payer's checkout from the link (links/link-payments.ts) and
 * answers the page with `<momo-checkout>` on the companion's own routes. A link that takes no
 * payment answers 410 (404 for no link) with a page in the payer's language, and creates nothing.
 *
 * Under the console's strict CSP (scripts and styles from `'self'` only, no inline ones), limited
 * per client address like the other payer routes, and showing nothing of any other payment: only
 * the link's own terms, and a checkout token for the payer who asked.
 *
 * Opened by a merchant's mobile app with `?channel=<name>` (and `return=`, app-page/app-query.ts,
 * as the app page checks them), the same pages are an app's (issue 54, docs/mobile-apps.md): the
 * frame of app-page/ (no header, no link out) with its bridge script, which tells the app the
 * payment's outcome once. The form keeps the app's query, the payer's checkout comes back from a
 * wallet's approval page to this page in app mode (`?...&momo_order=<orderId>`, the return
 * route's), which shows that checkout again, from the token the bridge kept for the order, even
 * once the payment used the link up.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { hasUnusableCharacters } from '../model/id-text.js';
import { isLinkOrderOf, linkStanding, type LinkRecord } from '../model/link.js';
import { returnOrderQueryParam } from '../../contract/companion.js';
import { linkAmountDecimals, payerAmountOf } from '../links/link-rules.js';
import { startLinkCheckout } from '../links/link-payments.js';
import type { Env, LinkPageDeps } from './app-deps.js';
import { amountProblemText, linkCheckoutPage, linkFormPage, linkGonePage, linkPageIcon, linkPageStylesheet, linkUnavailablePage, type LinkPageParts } from './link-page-html.js';
import { storeRetryAfterSeconds, StoreUnavailableError } from '../stores/store-guard.js';
import { linkPageLanguageOf, linkPageText } from './link-page-text.js';
import { CheckoutError } from '../payments/checkouts.js';
import { PayerRefusal } from '../model/payer-refusal.js';
import { readElementFiles, type EncodedFile } from './link-page-assets.js';
import { accepts } from 'hono/accepts';
import { appPageRefusal } from './app-page/app-page-html.js';
import { appQueryOf, appQueryText, asksForApp, type AppQuery } from './app-page/app-query.js';

// img-src https: for the operator's logo the element shows (a URL of the service's choosing,
// element/urls.ts) and the shop's logo (`shopLogoUrl`, https): docs/merchant-guide.md says so.
const contentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Brotli where the browser takes it, else gzip, else the file as built (an encoding the browser sets at q=0 is not sent). */
function encodingFor(c: Context<Env>, file: EncodedFile): 'br' | 'gzip' | 'identity' {
  return accepts(c, {
    header: 'Accept-Encoding',
    supports: ['br', 'gzip'],
    default: 'identity',
    match: (accepted, { supports, default: none }) => {
      const weight = (name: string) => accepted.find((each) => each.type === name)?.q ?? accepted.find((each) => each.type === '*')?.q ?? 0;
      return supports.find((name) => file[name as 'br' | 'gzip'] && weight(name) > 0) ?? none;
    },
  }) as 'br' | 'gzip' | 'identity';
}

/** The headers of every page a payer's browser is answered here (the app page's too, app-page/). */
export const linkPageHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'cache-control': 'no-store',
  // Not no-referrer: under it a browser sends a form's POST with Origin: null, which the POST's origin check refuses.
  'referrer-policy': 'same-origin',
};

/** The per-address limit of the payer's pages; a store that does not answer is `unavailable`'s page. */
export function limitPerAddress(deps: Pick<LinkPageDeps, 'clientAddress' | 'perAddress'>, unavailable: (c: Context<Env>, error: unknown) => Response | Promise<Response>) {
  return async function perAddress(c: Context<Env>, next: () => Promise<void>): Promise<Response | undefined> {
    const address = deps.clientAddress(c.req.raw, c.env);
    let wait: number;
    try {
      wait = address ? await deps.perAddress.take(address) : 0;
    } catch (error) {
      return unavailable(c, error);
    }
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return c.text('Too many requests from this address: wait a minute, then open the link again.', 429);
    }
    await next();
    return undefined;
  };
}

export function registerLinkPages(app: Hono<Env>, deps: LinkPageDeps, elementFiles = readElementFiles(deps.elementAssetsDir)): void {
  const assets = `${deps.mountPath}/l/assets`;
  const publicOrigin = new URL(deps.base).origin;
  /** The app the page is opened in (`?channel=`), none, or the sentence refusing its query. */
  const appOf = (c: Context<Env>): AppQuery | null | { problem: string } => {
    const query = new URL(c.req.url).searchParams;
    return asksForApp(query) ? appQueryOf(query, deps.appReturnSchemes) : null;
  };
  /** `orderId`: the payer's checkout on an app's page, whose token the bridge keeps under it. */
  const partsOf = (c: Context<Env>, linkId: string, orderId?: string): LinkPageParts => {
    const found = appOf(c);
    const app = found && !('problem' in found) ? found : null;
    // A language the link was opened in (`?lang=fr`, as a shop may send it) stays for the payer's
    // checkout, as the app's query stays for its form and for the way back from an approval page.
    const lang = new URL(c.req.url).searchParams.has('lang') ? `lang=${linkPageLanguageOf(c.req.raw)}` : '';
    const query = [lang, app ? appQueryText(app) : ''].filter(Boolean).join('&');
    return {
      language: linkPageLanguageOf(c.req.raw),
      shop: deps.shop,
      assets,
      url: `${deps.base}/l/${linkId}`,
      formAction: `${deps.base}/l/${linkId}${query ? `?${query}` : ''}`,
      app: app ? { channel: app.channel, returnUrl: app.returnUrl?.href ?? '', bridgeScript: `${deps.mountPath}/app/assets/app.js`, orderId } : undefined,
    };
  };
  const page = (c: Context<Env>, html: string, status: 200 | 404 | 410 | 422 | 429 | 500 | 503) =>
    c.html(html, status, linkPageHeaders);
  /**
   * A payer's browser is answered a page in their language, never the payer routes' JSON: the
   * store not answering is a 503 to retry (its deadline logged the outage once), anything else
   * is logged and a 500. A link's page never posts a pay-in, so "nothing was charged" holds.
   */
  const unavailable = (c: Context<Env>, error: unknown) => {
    const outage = error instanceof StoreUnavailableError;
    if (!outage) deps.log.error('payment link page failed', { path: new URL(c.req.url).pathname, error });
    c.header('retry-after', String(storeRetryAfterSeconds));
    return page(c, linkUnavailablePage(partsOf(c, c.req.param('linkId') ?? '')), outage ? 503 : 500);
  };

  app.use('/l/*', limitPerAddress(deps, unavailable));

  app.get('/l/assets/link.css', (c) => c.body(linkPageStylesheet, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }));
  app.get('/l/assets/icon.svg', (c) => c.body(linkPageIcon, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }));
  app.get('/l/assets/:file', async (c) => {
    const files = await elementFiles();
    const file = files.ok ? files.files.get(c.req.param('file')) : undefined;
    if (!file) return c.text('No such file.', 404);
    const encoding = encodingFor(c, file);
    const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' };
    if (encoding === 'identity') return c.body(file.body as Uint8Array<ArrayBuffer>, 200, headers);
    return c.body(file[encoding] as Uint8Array<ArrayBuffer>, 200, { ...headers, 'content-encoding': encoding });
  });

  /**
   * The link, open or not, or the page that says there is none (or, to the app's developer, what
   * is wrong with the app's query).
   */
  const findLink = async (c: Context<Env>): Promise<{ link: LinkRecord } | { answer: Response }> => {
    const app = appOf(c);
    if (app && 'problem' in app) return { answer: c.html(appPageRefusal(app.problem), 400, linkPageHeaders) };
    const linkId = c.req.param('linkId') ?? '';
    const link = hasUnusableCharacters(linkId) || !deps.store.links ? undefined : await deps.store.links.getLink(linkId);
    return link ? { link } : { answer: page(c, linkGonePage(partsOf(c, linkId), 'unknown'), 404) };
  };

  /** The live link, or the page that says why it takes no payment. */
  const openLink = async (c: Context<Env>): Promise<{ link: LinkRecord } | { answer: Response }> => {
    const found = await findLink(c);
    if ('answer' in found) return found;
    const { link } = found;
    const parts = partsOf(c, link.linkId);
    const standing = linkStanding(link, deps.now());
    if (standing !== 'open') return { answer: page(c, linkGonePage(parts, standing), 410) };
    return { link };
  };

  /** The handler, answering a page when it throws. */
  const answering =
    (handler: (c: Context<Env>) => Promise<Response>) =>
    async (c: Context<Env>): Promise<Response> => {
      try {
        return await handler(c);
      } catch (error) {
        return unavailable(c, error);
      }
    };

  /** The element's files, or the 503 page saying the checkout cannot be shown (the merchant must fix the package). */
  const elementScript = async (c: Context<Env>, parts: LinkPageParts, linkId: string): Promise<{ script: { file: string; integrity: string } } | { answer: Response }> => {
    const files = await elementFiles();
    if (files.ok) return { script: files.script };
    deps.log.error(`payment link page cannot show the checkout: ${files.reason}`, { linkId });
    c.header('retry-after', '60');
    return { answer: page(c, linkUnavailablePage(parts), 503) };
  };

  /**
   * An app's page back from a wallet's approval page (the return route added `momo_order`): the
   * payer's checkout again, whatever the link's standing now (their own payment may have used it
   * up), its token the one the bridge kept for the order. Null when this is no such way back.
   */
  const backInApp = async (c: Context<Env>): Promise<Response | null> => {
    const orderId = new URL(c.req.url).searchParams.get(returnOrderQueryParam);
    const app = appOf(c);
    if (orderId === null || !app) return null;
    const found = await findLink(c);
    if ('answer' in found) return found.answer;
    const { link } = found;
    if (!isLinkOrderOf(link, orderId)) return null;
    const parts = partsOf(c, link.linkId, orderId);
    const element = await elementScript(c, parts, link.linkId);
    if ('answer' in element) return element.answer;
    return page(c, linkCheckoutPage(parts, link, { token: null, endpoint: deps.mountPath || '/', amount: link.amount }, element.script), 200);
  };

  app.get(
    '/l/:linkId',
    answering(async (c) => {
      const back = await backInApp(c);
      if (back) return back;
      const opened = await openLink(c);
      if ('answer' in opened) return opened.answer;
      return page(c, linkFormPage(partsOf(c, opened.link.linkId), opened.link), 200);
    }),
  );

  app.post('/l/:linkId', bodyLimit({ maxSize: 2048, onError: (c) => c.text('The form is too large.', 413) }), answering(async (c) => {
    // A browser sends Origin with every form POST: one from another site is not this page's form.
    if (c.req.header('origin') !== publicOrigin) return c.text(`Payment link forms are accepted from ${publicOrigin} only.`, 403);
    // An app's page of a payer's checkout, reloaded: the bridge gave it the way back's address,
    // which WebKit posts again. That payer's checkout is the GET's, never another one.
    const search = new URL(c.req.url).search;
    if (appOf(c) && new URLSearchParams(search).has(returnOrderQueryParam)) return c.redirect(`${deps.base}/l/${c.req.param('linkId')}${search}`, 303);
    const opened = await openLink(c);
    if ('answer' in opened) return opened.answer;
    const { link } = opened;
    const parts = partsOf(c, link.linkId);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const facts = link.amount === null ? await deps.discovery.currencyFacts(link.currencyCode, { budgetMs: 1_500 }) : null;
    const decimals = linkAmountDecimals(link.currencyCode, facts);
    const amount = payerAmountOf(link, form.amount, decimals);
    if (!amount.ok) return page(c, linkFormPage(parts, link, { amount: typeof form.amount === 'string' ? form.amount : '', message: amountProblemText(parts.language, link, amount.problem, decimals) }), 422);
    // The link is open: the package's files are what may be missing, which the merchant must fix.
    const element = await elementScript(c, parts, link.linkId);
    if ('answer' in element) return element.answer;
    let checkout;
    try {
      // In an app, a wallet's approval page comes back to this page in app mode (backInApp), not to the link's returnUrl.
      checkout = await startLinkCheckout(deps, link, amount.amount, parts.app ? parts.formAction : link.returnUrl);
    } catch (error) {
      // Forgotten since the page read it: as for an unknown link.
      if (error instanceof PayerRefusal) return page(c, linkGonePage(parts, 'unknown'), 404);
      // payments/payable.ts: an amount no operator takes in this currency; the payer is told, the merchant's log says why.
      if (!(error instanceof CheckoutError)) throw error;
      const message = linkPageText[parts.language].notPayable(deps.shop.name);
      return page(c, linkFormPage(parts, link, { amount: typeof form.amount === 'string' ? form.amount : '', message }), 422);
    }
    const checkoutParts = parts.app ? partsOf(c, link.linkId, checkout.orderId) : parts;
    return page(c, linkCheckoutPage(checkoutParts, link, { token: checkout.token, endpoint: deps.mountPath || '/', amount: amount.amount }, element.script), 200);
  }));
}

