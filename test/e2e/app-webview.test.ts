/**
 * Issue 54 in Chromium as an app's WebView: the bridge objects an app's WebView puts in every page
 * before its scripts run (`page.addInitScript`), react-native-webview's `window.ReactNativeWebView`
 * and an Android app's `@JavascriptInterface` object (a Flutter JavaScriptChannel has the same
 * shape), each receive the outcome once per payment (test/support/app-flows.ts), on the app page
 * and on a payment link's page in app mode. WebKitGTK as an
 * iOS app's WKWebView is test/engines/app-webview.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startHarness, type Harness } from '../server/harness.js';
import { builtOnce, removeBuild } from '../ship/built.js';
import { appChannel, appFlowCases, appLinkFlowCases, appServerSecret, type AppHost } from '../support/app-flows.js';
import { launchChromium } from './harness.js';

/** What each app's WebView injects: react-native-webview's object, or the app's own under the channel's name. */
const bridges = {
  'React Native, window.ReactNativeWebView': 'window.ReactNativeWebView = { postMessage: (message) => window.__toApp(message) };',
  'Android, @JavascriptInterface object': `window.${appChannel} = { postMessage: (message) => window.__toApp(message) };`,
} as const;

describe('e2e: the app page in Chromium with an app\'s bridge object', () => {
  let h: Harness;
  let browser: Browser;
  before(async () => {
    const build = await builtOnce();
    h = await startHarness({ setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: build.outDir, serverSecret: appServerSecret }, { pushDelayMs: 1_500, sameOrigin: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await h?.close();
    await removeBuild();
  });

  for (const [name, bridge] of Object.entries(bridges)) {
    const open = async (url: string): Promise<AppHost> => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
      const page = await context.newPage();
      const host: AppHost = {
        messages: [],
        navigations: [],
        newWindows: [],
        problems: [],
        loads: 0,
        run: (body) => page.evaluate(`(() => { ${body}\n })()`),
        reload: async () => {
          await page.reload();
        },
        close: () => context.close(),
      };
      await page.exposeBinding('__toApp', (_source, message: string) => void host.messages.push(message));
      await page.addInitScript(bridge);
      context.on('page', (opened) => host.newWindows.push(opened.url()));
      page.on('console', (message) => {
        // The sandbox's approval page has no icon: the tab's own /favicon.ico request is the harness's, not the page's.
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) host.problems.push(`console: ${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => host.problems.push(`uncaught: ${error.message}`));
      page.on('load', () => host.loads++);
      await page.goto(url);
      return host;
    };
    appFlowCases({ name: `Chromium, ${name}`, open, harness: () => h }, it);
    appLinkFlowCases({ name: `Chromium, ${name}`, open, harness: () => h }, it);
  }
});
