/**
 * `<publicUrl>/app/checkout?channel=<name>&return=<app URL>#token=<checkout token>`: the checkout
 * page a merchant's mobile app opens in a WebView (issue 54, docs/mobile-apps.md). The shop's
 * backend creates the checkout (its `returnUrl` this page's address without the fragment, so that
 * a wallet's approval page comes back here) and the app opens the page; the outcome reaches the
 * app by its own channel (app-bridge-script.ts).
 *
 * The query holds nothing secret and is checked here: the channel is a script identifier, and the
 * return address is followed only when its scheme is one of the merchant's `appReturnSchemes`
 * (never any address the URL carries: that would be an open redirect). Under the link pages'
 * strict CSP and per-address limit, sharing their element files.
 */
import type { Context, Hono } from 'hono';
import { appReturnUrl } from '../../model/app-return.js';
import type { Env, LinkPageDeps } from '../app-deps.js';
import { linkUnavailablePage } from '../link-page-html.js';
import { linkPageLanguageOf } from '../link-page-text.js';
import type { ElementFiles } from '../link-page-assets.js';
import { linkPageHeaders, limitPerAddress } from '../link-page-routes.js';
import { StoreUnavailableError } from '../../stores/store-guard.js';
import { appBridgeScript } from './app-bridge-script.js';
import { appCheckoutPage, appPageRefusal } from './app-page-html.js';

/** The channel's name when the app gives none: `window.webkit.messageHandlers.momoCheckout`, `window.momoCheckout`. */
export const defaultAppChannel = 'momoCheckout';
/** Names whose `window[name]` is the window itself or a channel of its own: never an app's object. */
const reservedNames = new Set(['window', 'self', 'top', 'parent', 'frames', 'opener', 'globalThis', 'document', 'location', 'webkit', 'ReactNativeWebView']);

/** Why `channel` cannot be the app's channel, or null. */
function channelProblem(channel: string): string | null {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/.test(channel)) return `channel ${JSON.stringify(channel)} is not a JavaScript name: give the name your app registered its message handler or JavaScript object under, e.g. channel=${defaultAppChannel}.`;
  if (reservedNames.has(channel)) return `channel ${channel} is a name the browser uses itself: register your app's handler under another name, e.g. ${defaultAppChannel}.`;
  return null;
}

export function registerAppPage(app: Hono<Env>, deps: LinkPageDeps, elementFiles: () => Promise<ElementFiles>): void {
  const bridgeScript = `${deps.mountPath}/app/assets/app.js`;
  const refuse = (c: Context<Env>, problem: string) => c.html(appPageRefusal(problem), 400, linkPageHeaders);
  /** The page that says the checkout cannot be shown now, in the payer's language (503, to retry). */
  const unavailable = (c: Context<Env>) => {
    const url = `${deps.base}/app/checkout`;
    c.header('retry-after', '60');
    return c.html(linkUnavailablePage({ language: linkPageLanguageOf(c.req.raw), shop: deps.shop, assets: `${deps.mountPath}/l/assets`, url, formAction: url }), 503, linkPageHeaders);
  };

  app.use(
    '/app/*',
    limitPerAddress(deps, (c, error) => {
      if (!(error instanceof StoreUnavailableError)) deps.log.error('app page failed', { error });
      return unavailable(c);
    }),
  );
  app.get('/app/assets/app.js', (c) => c.body(appBridgeScript, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' }));
  app.get('/app/checkout', async (c) => {
    const query = new URL(c.req.url).searchParams;
    const channel = query.get('channel') ?? defaultAppChannel;
    const problem = channelProblem(channel);
    if (problem) return refuse(c, problem);
    const asked = query.get('return');
    const returnUrl = asked === null ? null : appReturnUrl(asked, deps.appReturnSchemes);
    if (asked !== null && !returnUrl) {
      const schemes = deps.appReturnSchemes.length > 0 ? `its scheme is not one of appReturnSchemes (${deps.appReturnSchemes.join(', ')})` : 'the companion has no appReturnSchemes (MOMO_APP_RETURN_SCHEMES)';
      return refuse(c, `This page follows no return address whose scheme the shop did not configure: ${schemes}. Add your app's scheme to appReturnSchemes, or leave return out and receive the outcome through the channel.`);
    }
    const language = linkPageLanguageOf(c.req.raw);
    const linkAssets = `${deps.mountPath}/l/assets`;
    const files = await elementFiles();
    if (!files.ok) {
      deps.log.error(`the app page cannot show the checkout: ${files.reason}`);
      return unavailable(c);
    }
    const parts = { language, shopName: deps.shop.name, endpoint: deps.mountPath || '/', linkAssets, bridgeScript, channel, returnUrl: returnUrl?.href ?? '' };
    return c.html(appCheckoutPage(parts, files.script), 200, linkPageHeaders);
  });
}
