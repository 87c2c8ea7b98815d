/**
 * The demo checkout on the networks payers have (issue 10): Debian's Chromium, driven by
 * playwright-core, loads the demo store's page with CDP network emulation, cache off, and reports
 * per profile (median of a few loads):
 *
 * - **field usable**: from navigation start until the phone field is in the page, enabled, so what
 *   the payer types is kept (target on Slow 3G: <= 2.0 s);
 * - **KB before typing**: bytes on the wire (compressed, headers included) of the requests done
 *   by then (target <= 40 KB);
 * - **number → Pay**: from leaving the field with a valid number until the pay button is enabled
 *   (target: one round trip to the companion, <= 0.6 s on Slow 3G);
 * - **companion trips**: requests from the element to the companion in that time;
 * - **KB in all**: every byte of the load, the checkout and the number's round trips included.
 *
 * And a warm-cache return visit on Slow 3G (a first visit with the cache on, then a new order page).
 *
 * The demo runs in this process against its sandbox, on loopback: the emulated latency and
 * throughput are the only network. Run alone: `npx tsx bench/page-load.ts` (`links` as its argument:
 * the payment links' pages only; `app`: the app page only, `benchAppPageLoad`).
 *
 * A payment link's pages (issue 44, `benchLinkPageLoad`, on a companion of their own: link-pages.ts)
 * are two loads: the link's page (shop, amount or amount field, a button), then, once the payer
 * presses it, the page with their checkout. Per link, cold, per profile:
 *
 * - **link page shown**: from navigation until the first contentful paint (the button and the
 *   amount, with the page's stylesheet: the page is plain HTML, usable once shown);
 * - **field usable**: the demo's figure, on the checkout page: from the press's navigation until
 *   the phone field takes typing;
 * - **KB before typing**: bytes on the wire of that checkout page's requests until then;
 * - **open → field usable**: both, with the press at once (typing the amount first where the payer
 *   chooses it), from the first navigation.
 */
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { startDemo } from '../demo/start-demo.js';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { createLogger } from '../src/server/index.js';
import { startLinkPages } from './link-pages.js';
import { newOrderId, startHarness } from '../test/server/harness.js';
import { builtOnce, removeBuild } from '../test/ship/built.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

export interface NetworkProfile {
  name: string;
  /** Round-trip latency added to every request, ms. */
  latencyMs: number;
  /** Bits per second, each way; 0 = unthrottled. */
  downKbit: number;
  upKbit: number;
}

export const profiles: readonly NetworkProfile[] = [
  { name: 'none', latencyMs: 0, downKbit: 0, upKbit: 0 },
  { name: 'Fast 3G', latencyMs: 150, downKbit: 1600, upKbit: 750 },
  { name: 'Slow 3G', latencyMs: 400, downKbit: 400, upKbit: 400 },
];

/** A Benin MTN push number of the sandbox that approves (src/sandbox/catalogue/test-numbers.ts). */
const testNumber = '+2290196000001';
const samples = Number(process.env.BENCH_PAGE_SAMPLES ?? 3);
// BENCH_PAGE_LANG=fr: the French page, which also downloads the French language file (issue 23).
const pagePath = process.env.BENCH_PAGE_LANG ? `/?lang=${encodeURIComponent(process.env.BENCH_PAGE_LANG)}` : '/';

interface Load {
  usableMs: number;
  bytesBeforeTyping: number;
  numberToPayMs: number;
  companionTrips: number;
  bytesInAll: number;
}

async function emulate(cdp: CDPSession, profile: NetworkProfile, cacheDisabled: boolean): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.downKbit === 0 ? -1 : (profile.downKbit * 1000) / 8,
    uploadThroughput: profile.upKbit === 0 ? -1 : (profile.upKbit * 1000) / 8,
  });
}

/** Records, in the page, when the phone field first becomes usable (performance.now(), from navigation). */
const watchField = `(() => {
  const look = () => {
    const input = document.querySelector('momo-checkout')?.shadowRoot?.querySelector('input#phone');
    if (input && !input.disabled && input.isConnected) { window.__momoUsableAt = performance.now(); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();`;

/**
 * Resolves with `expression` once it is truthy, checked each frame. Strings evaluated by CDP, not
 * `waitForFunction`: the demo's CSP forbids eval, and tsx's helpers (`__name`) do not exist in the page.
 */
const until = (expression: string) => `new Promise((resolve) => {
  const look = () => {
    const value = ${expression};
    if (value) resolve(value);
    else requestAnimationFrame(look);
  };
  look();
})`;

/**
 * Types the number, leaves the field, and resolves with the ms until the pay button is enabled.
 * A string, not a function: tsx's helpers (`__name`) do not exist in the page.
 */
const numberToPay = (number: string) => `new Promise((resolve) => {
  const el = document.querySelector('momo-checkout');
  const input = el.shadowRoot.querySelector('input#phone');
  input.focus();
  input.value = ${JSON.stringify(number)};
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  const start = performance.now();
  input.blur();
  const look = () => {
    const pay = el.shadowRoot.querySelector('[part="submit-button"]');
    if (el.status === 'ready' && pay && !pay.disabled) resolve(performance.now() - start);
    else requestAnimationFrame(look);
  };
  look();
})`;

async function loadOnce(context: BrowserContext, url: string, profile: NetworkProfile, cacheDisabled: boolean): Promise<Load> {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await emulate(cdp, profile, cacheDisabled);
  // CDP timestamps (s, monotonic) of each finished request, with its bytes on the wire.
  const finished: Array<{ at: number; bytes: number; url: string }> = [];
  const urls = new Map<string, string>();
  let navigationAt = 0;
  cdp.on('Network.requestWillBeSent', (event) => {
    urls.set(event.requestId, event.request.url);
    if (navigationAt === 0 && event.type === 'Document') navigationAt = event.timestamp;
  });
  cdp.on('Network.loadingFinished', (event) => {
    finished.push({ at: event.timestamp, bytes: event.encodedDataLength, url: urls.get(event.requestId) ?? '' });
  });
  await page.addInitScript(watchField);
  await page.goto(url, { waitUntil: 'commit' });
  const usableMs = (await page.evaluate(until('window.__momoUsableAt'))) as number;
  // The page's clock starts at navigation, as the Document request's CDP timestamp does (to a few ms).
  const usableAt = navigationAt + usableMs / 1000;
  const bytesBeforeTyping = finished.filter((f) => f.at <= usableAt).reduce((sum, f) => sum + f.bytes, 0);

  // The number, once the element can check it (after the checkout answered), then leaving the field.
  await page.evaluate(until(`document.querySelector('momo-checkout')?.status === 'entering'`));
  const before = finished.length;
  const numberToPayMs = (await page.evaluate(numberToPay(testNumber))) as number;
  // Let the last response's loadingFinished arrive.
  await page.waitForTimeout(profile.latencyMs + 100);
  const companionTrips = finished.slice(before).filter((f) => new URL(f.url).pathname.startsWith('/momo/checkout/')).length;
  const bytesInAll = finished.reduce((sum, f) => sum + f.bytes, 0);
  await page.close();
  return { usableMs, bytesBeforeTyping, numberToPayMs, companionTrips, bytesInAll };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function summarise(label: string, loads: Load[], withNumber = true): Figure[] {
  const figures: Figure[] = [
    { name: `${label}: field usable`, value: median(loads.map((l) => l.usableMs)) / 1000, unit: 's' },
    { name: `${label}: KB before typing`, value: median(loads.map((l) => l.bytesBeforeTyping)) / 1024, unit: 'KB' },
  ];
  if (withNumber) {
    figures.push(
      { name: `${label}: number → Pay enabled`, value: median(loads.map((l) => l.numberToPayMs)) / 1000, unit: 's' },
      { name: `${label}: companion trips for the number`, value: median(loads.map((l) => l.companionTrips)), unit: '' },
      { name: `${label}: KB in all`, value: median(loads.map((l) => l.bytesInAll)) / 1024, unit: 'KB' },
    );
  }
  return figures;
}

/**
 * Each network profile's cold loads (a fresh browser context each) of the page `urlOf` gives for
 * that load, summarised under `<prefix><profile>, cold`.
 */
async function coldFigures(browser: Browser, prefix: string, urlOf: () => Promise<string>): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const profile of profiles) {
    const loads: Load[] = [];
    for (let i = 0; i < samples; i++) {
      const url = await urlOf();
      const context = await browser.newContext();
      loads.push(await loadOnce(context, url, profile, true));
      await context.close();
    }
    figures.push(...summarise(`${prefix}${profile.name}, cold`, loads));
  }
  return figures;
}

export async function benchPageLoad(): Promise<Figure[]> {
  const demo = await startDemo({ port: 0, log: () => {}, companionLog: createLogger({ level: 'error', sink: () => {} }) });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const figures = await coldFigures(browser, '', async () => `${demo.url}${pagePath}`);
    // A return visit: the same browser profile, cache on, a first page to fill it.
    const slow = profiles.find((p) => p.name === 'Slow 3G')!;
    const warm: Load[] = [];
    for (let i = 0; i < samples; i++) {
      const context = await browser.newContext();
      await loadOnce(context, `${demo.url}${pagePath}`, slow, false);
      warm.push(await loadOnce(context, `${demo.url}/`, slow, false));
      await context.close();
    }
    figures.push(...summarise('Slow 3G, warm cache', warm, false));
    return figures;
  } finally {
    await browser?.close();
    await demo.close();
  }
}

interface LinkLoad {
  shownMs: number;
  usableMs: number;
  bytesBeforeTyping: number;
  openToUsableMs: number;
}

/** `expression` evaluated until it resolves in the page that ends up loaded (one navigation may destroy the first try's page). */
async function inLoadedPage(page: Page, expression: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.evaluate(expression);
    } catch (error) {
      if (attempt > 20 || !/context was destroyed|navigat/i.test(String(error))) throw error;
    }
  }
}

/** Opens a link's page, presses its button (typing `amount` first) at once, and waits for the checkout's phone field. */
async function linkLoadOnce(context: BrowserContext, url: string, amount: string | undefined, profile: NetworkProfile): Promise<LinkLoad> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await emulate(cdp, profile, true);
  const finished: Array<{ at: number; bytes: number }> = [];
  const documentsAt: number[] = [];
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.type === 'Document') documentsAt.push(event.timestamp);
  });
  cdp.on('Network.loadingFinished', (event) => finished.push({ at: event.timestamp, bytes: event.encodedDataLength }));
  await page.addInitScript(watchField);
  await page.goto(url, { waitUntil: 'commit' });
  const shownMs = (await page.evaluate(until(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime`))) as number;
  if (amount !== undefined) await page.fill('#amount', amount);
  await page.click('button[type=submit]', { noWaitAfter: true });
  const usableMs = (await inLoadedPage(page, until('window.__momoUsableAt'))) as number;
  const [openedAt = 0, pressedAt = 0] = documentsAt;
  const usableAt = pressedAt + usableMs / 1000;
  const bytesBeforeTyping = finished.filter((f) => f.at >= pressedAt && f.at <= usableAt).reduce((sum, f) => sum + f.bytes, 0);
  await page.close();
  return { shownMs, usableMs, bytesBeforeTyping, openToUsableMs: (usableAt - openedAt) * 1000 };
}

export async function benchLinkPageLoad(): Promise<Figure[]> {
  const links = await startLinkPages();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const figures: Figure[] = [];
    for (const link of links.pages) {
      for (const profile of profiles) {
        const loads: LinkLoad[] = [];
        for (let i = 0; i < samples; i++) {
          const context = await browser.newContext();
          loads.push(await linkLoadOnce(context, link.url, link.amount, profile));
          await context.close();
        }
        const label = `${link.label}, ${profile.name}, cold`;
        figures.push(
          { name: `${label}: link page shown`, value: median(loads.map((l) => l.shownMs)) / 1000, unit: 's' },
          { name: `${label}: field usable (after the press)`, value: median(loads.map((l) => l.usableMs)) / 1000, unit: 's' },
          { name: `${label}: KB before typing (after the press)`, value: median(loads.map((l) => l.bytesBeforeTyping)) / 1024, unit: 'KB' },
          { name: `${label}: open → field usable`, value: median(loads.map((l) => l.openToUsableMs)) / 1000, unit: 's' },
        );
      }
    }
    return figures;
  } finally {
    await browser?.close();
    await links.close();
  }
}

/**
 * The app page a shop's mobile app opens in a WebView (issue 54, `<publicUrl>/app/checkout`), cold,
 * per profile: the demo's figures, on a checkout made for each load as a shop's backend makes one.
 * The page is the checkout alone: its HTML, the link pages' stylesheet, the bridge script and the
 * element's script-tag file (the demo's page carries its own bundle, the order summary and its
 * stylesheet).
 */
export async function benchAppPageLoad(): Promise<Figure[]> {
  const build = await builtOnce();
  // Dozens of loads from one address in a minute: the per-address limit is not what is measured.
  const h = await startHarness({ setupChecksAtStart: false, shopName: 'Maison Adjoa', elementAssetsDir: build.outDir, limits: { perAddress: { burst: 100_000, perMinute: 100_000 } } });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    return await coldFigures(browser, 'app page, ', async () => {
      const { token } = await h.companion.createCheckout({ orderId: newOrderId(), amount: '5000', currencyCode: 'XOF' });
      return `${h.base}/app/checkout?channel=momoCheckout#token=${encodeURIComponent(token)}`;
    });
  } finally {
    await browser?.close();
    await h.close();
    await removeBuild();
  }
}

const benches = { links: benchLinkPageLoad, app: benchAppPageLoad } as const;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const figure of await (benches[process.argv[2] as keyof typeof benches] ?? benchPageLoad)()) {
    const value = Number.isInteger(figure.value) ? String(figure.value) : figure.value.toFixed(2);
    console.log(`${figure.name.padEnd(50)} ${value.padStart(8)} ${figure.unit}`);
  }
}
