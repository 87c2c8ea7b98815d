/**
 * Issue 54 in WebKitGTK set up as an iOS app sets up WKWebView (test/engines/app-webview.py): the
 * app page's outcome reaches `window.webkit.messageHandlers.momoCheckout` once per payment, for a
 * push, a payment code, the wallet's approval page and back, a decline and a reload; and, in a
 * WebView with no handler, arrives once as a navigation to the app's return address, which the
 * navigation policy catches; and a payment link's page in app mode, through the wallet's approval
 * page and back, and reloaded mid-payment, once each.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type Harness } from '../server/harness.js';
import { builtOnce, removeBuild } from '../ship/built.js';
import { appCheckout, appChannel, appFlowCases, appLinkFlowCases, AppPage, appNumbers, appServerSecret, assertOutcome, assertQuietPage, theOneMessage } from '../support/app-flows.js';
import { openAppWebView } from './app-webview.js';
import { assertWebKitInstalled } from './webkit.js';

describe('engines: WebKit, the app page in an iOS-style WebView', () => {
  let h: Harness;
  before(async () => {
    await assertWebKitInstalled();
    const build = await builtOnce();
    // 1.5 s of ringing: time for the reload mid-payment. The wallet's approval page on the companion's origin, as the demo serves it.
    h = await startHarness({ setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: build.outDir, appReturnSchemes: ['shopapp'], serverSecret: appServerSecret }, { pushDelayMs: 1_500, sameOrigin: true });
  });
  after(async () => {
    await h?.close();
    await removeBuild();
  });

  appFlowCases({ name: 'WebKit, iOS message handler', open: (url) => openAppWebView(url, appChannel, 'shopapp'), harness: () => h }, it);
  // A payment link's page in app mode: the wallet's approval page and back, and a reload (each from the token the bridge kept for the order).
  appLinkFlowCases({ name: 'WebKit, iOS message handler', open: (url) => openAppWebView(url, appChannel, 'shopapp'), harness: () => h }, it, ['wallet', 'reload']);

  it('WebKit, no message handler: the outcome arrives once as a navigation to the app\'s return address, which the app catches', async () => {
    const { orderId, url } = await appCheckout(h, `channel=${appChannel}&return=${encodeURIComponent('shopapp://paid?from=checkout')}`);
    const host = await openAppWebView(url, null, 'shopapp');
    try {
      await new AppPage(host).pay(appNumbers.pushApproves);
      const target = new URL(await theOneMessage(host, 'navigations'));
      assert.equal(`${target.protocol}//${target.host}`, 'shopapp://paid');
      assert.deepEqual([...target.searchParams], [['from', 'checkout'], ['orderId', orderId], ['outcome', 'succeeded']]);
      assert.equal((await h.companion.getPayment(orderId))?.state, 'completed', 'the store recorded the outcome the app was told');
      assert.deepEqual(host.messages, []);
      assertQuietPage(host);
    } finally {
      await host.close();
    }
  });
});
