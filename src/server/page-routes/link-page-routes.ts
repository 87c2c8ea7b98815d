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
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { hasUnusableCharacters } from '../model/id-text.js';
import { linkStanding, type LinkRecord } from '../model/link.js';
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
  const partsOf = (c: Context<Env>, linkId: string): LinkPageParts => ({
    language: linkPageLanguageOf(c.req.raw),
    shop: deps.shop,
    assets,
    url: `${deps.base}/l/${linkId}`,
    // A language the link was opened in (`?lang=fr`, as a shop may send it) stays for the payer's checkout.
    formAction: `${deps.base}/l/${linkId}${new URL(c.req.url).searchParams.has('lang') ? `?lang=${linkPageLanguageOf(c.req.raw)}` : ''}`,
  });
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

  /** The live link, or the page that says why it takes no payment. */
  const openLink = async (c: Context<Env>): Promise<{ link: LinkRecord } | { answer: Response }> => {
    const linkId = c.req.param('linkId') ?? '';
    const parts = partsOf(c, linkId);
    const link = hasUnusableCharacters(linkId) || !deps.store.links ? undefined : await deps.store.links.getLink(linkId);
    if (!link) return { answer: page(c, linkGonePage(parts, 'unknown'), 404) };
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

  app.get(
    '/l/:linkId',
    answering(async (c) => {
      const opened = await openLink(c);
      if ('answer' in opened) return opened.answer;
      return page(c, linkFormPage(partsOf(c, opened.link.linkId), opened.link), 200);
    }),
  );

  app.post('/l/:linkId', bodyLimit({ maxSize: 2048, onError: (c) => c.text('The form is too large.', 413) }), answering(async (c) => {
    // A browser sends Origin with every form POST: one from another site is not this page's form.
    if (c.req.header('origin') !== publicOrigin) return c.text(`Payment link forms are accepted from ${publicOrigin} only.`, 403);
    const opened = await openLink(c);
    if ('answer' in opened) return opened.answer;
    const { link } = opened;
    const parts = partsOf(c, link.linkId);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const facts = link.amount === null ? await deps.discovery.currencyFacts(link.currencyCode, { budgetMs: 1_500 }) : null;
    const decimals = linkAmountDecimals(link.currencyCode, facts);
    const amount = payerAmountOf(link, form.amount, decimals);
    if (!amount.ok) return page(c, linkFormPage(parts, link, { amount: typeof form.amount === 'string' ? form.amount : '', message: amountProblemText(parts.language, link, amount.problem, decimals) }), 422);
    const files = await elementFiles();
    if (!files.ok) {
      // The link is open: the package's files are what is missing, which the merchant must fix.
      deps.log.error(`payment link page cannot show the checkout: ${files.reason}`, { linkId: link.linkId });
      c.header('retry-after', '60');
      return page(c, linkUnavailablePage(parts), 503);
    }
    let checkout;
    try {
      checkout = await startLinkCheckout(deps, link, amount.amount);
    } catch (error) {
      // Forgotten since the page read it: as for an unknown link.
      if (error instanceof PayerRefusal) return page(c, linkGonePage(parts, 'unknown'), 404);
      // payments/payable.ts: an amount no operator takes in this currency; the payer is told, the merchant's log says why.
      if (!(error instanceof CheckoutError)) throw error;
      const message = linkPageText[parts.language].notPayable(deps.shop.name);
      return page(c, linkFormPage(parts, link, { amount: typeof form.amount === 'string' ? form.amount : '', message }), 422);
    }
    return page(c, linkCheckoutPage(parts, link, { token: checkout.token, endpoint: deps.mountPath || '/', amount: amount.amount }, files.script), 200);
  }));
}

