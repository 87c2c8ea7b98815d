/**
 * `<publicUrl>/app/checkout?channel=<name>&return=<app URL>#token=<checkout token>`: the checkout
 * page a merchant's mobile app opens in a WebView (issue 54, docs/mobile-apps.md). The shop's
 * backend creates the checkout (its `returnUrl` this page's address without the fragment, so that
 * a wallet's approval page comes back here) and the app opens the page; the outcome reaches the
 * app by its own channel (app-bridge-script.ts).
 *
 * The query holds nothing secret and is checked by app-query.ts (as a link's page in app mode
 * checks it). Under the link pages' strict CSP and per-address limit, sharing their element files.
 */
import type { Context, Hono } from 'hono';
import type { Env, LinkPageDeps } from '../app-deps.js';
import { linkUnavailablePage } from '../link-page-html.js';
import { linkPageLanguageOf } from '../link-page-text.js';
import type { ElementFiles } from '../link-page-assets.js';
import { linkPageHeaders, limitPerAddress } from '../link-page-routes.js';
import { StoreUnavailableError } from '../../stores/store-guard.js';
import { appBridgeScript } from './app-bridge-script.js';
import { appCheckoutPage, appPageRefusal } from './app-page-html.js';
import { appQueryOf } from './app-query.js';

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
    const app = appQueryOf(new URL(c.req.url).searchParams, deps.appReturnSchemes);
    if ('problem' in app) return refuse(c, app.problem);
    const language = linkPageLanguageOf(c.req.raw);
    const linkAssets = `${deps.mountPath}/l/assets`;
    const files = await elementFiles();
    if (!files.ok) {
      deps.log.error(`the app page cannot show the checkout: ${files.reason}`);
      return unavailable(c);
    }
    const parts = { language, shopName: deps.shop.name, endpoint: deps.mountPath || '/', linkAssets, bridgeScript, channel: app.channel, returnUrl: app.returnUrl?.href ?? '' };
    return c.html(appCheckoutPage(parts, files.script), 200, linkPageHeaders);
  });
}
