/**
 * Issue 54's flows in an app's WebView, written once for every host (test/engines/app-webview.test.ts:
 * WebKitGTK registered as an iOS app registers WKWebView; test/e2e/app-webview.test.ts: Chromium
 * with react-native-webview's and an Android app's bridge objects injected before the page loads).
 *
 * Each flow creates a checkout as a shop's backend does, opens the app page with its token in the
 * fragment, pays with a sandbox number, and holds that the outcome reached the app exactly once by
 * the channel, with what the element's event carries and nothing secret, and only once the store
 * recorded it. A second look after a pause catches a second message. The same for a payment link
 * the shop's backend made (the server API), opened in app mode (`/l/<linkId>?channel=...`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Harness } from '../server/harness.js';
import { newOrderId } from '../server/harness.js';
import { until } from './until.js';

/** What the tests see of an app around its WebView. */
export interface AppHost {
  /** What the page posted to the app's channel, in order. */
  messages: string[];
  /** Navigations to the app's own scheme the WebView caught (and went nowhere). */
  navigations: string[];
  /** New windows the page asked for (an app's WebView has none). */
  newWindows: string[];
  /** Console errors and uncaught exceptions. */
  problems: string[];
  /** Pages loaded so far. */
  loads: number;
  /** Runs a function body in the page and gives its JSON result. */
  run<T>(body: string): Promise<T>;
  reload(): Promise<void>;
  close(): Promise<void>;
}

const inPage = readFileSync(new URL('../engines/in-page.js', import.meta.url), 'utf8');
export const appChannel = 'momoCheckout';
// Sandbox test numbers (src/sandbox/catalogue/test-numbers.ts).
export const appNumbers = { pushApproves: '+2290196000001', pushDeclines: '+2290196000002', otpApproves: '+2290194000001' } as const;

type Query = Record<string, unknown>;
const named = (name: string | RegExp) => (typeof name === 'string' ? { text: name, exact: true } : { regex: name.source, flags: name.flags });

/** The app page's address for this checkout, as the app opens it (the token in the fragment). */
export function appPageUrl(h: Harness, token: string, query = `channel=${appChannel}`): string {
  return `${h.base}/app/checkout?${query}#token=${encodeURIComponent(token)}`;
}

/** A checkout as the shop's backend creates it for its app: the approval page comes back to the app page. */
export async function appCheckout(h: Harness, query = `channel=${appChannel}`): Promise<{ orderId: string; token: string; url: string }> {
  const orderId = newOrderId();
  const { token } = await h.companion.createCheckout({ orderId, amount: '5000', currencyCode: 'XOF', returnUrl: `${h.base}/app/checkout?${query}` });
  return { orderId, token, url: appPageUrl(h, token, query) };
}

/** The server API's secret of the harnesses that run the link flows (`serverSecret`). */
export const appServerSecret = 'test-server-secret-app-flows-0123456789abcdef';

/** A single-use payment link as a shop's backend makes it (the server API), and its page in app mode as the app opens it. */
export async function appLink(h: Harness, query = `channel=${appChannel}`): Promise<{ linkId: string; url: string }> {
  const response = await fetch(`${h.base}/server/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${appServerSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ currencyCode: 'XOF', description: 'Pagne wax, 6 yards', amount: '3000' }),
  });
  assert.equal(response.status, 201, 'the harness takes appServerSecret as its serverSecret');
  const { linkId, url } = (await response.json()) as { linkId: string; url: string };
  return { linkId, url: `${url}?${query}` };
}

/** The page, driven by script through in-page.js (test/engines/). */
export class AppPage {
  constructor(readonly host: AppHost) {}

  call<T>(name: string, ...args: unknown[]): Promise<T> {
    return this.host.run<T>(`${inPage}\nreturn globalThis.__engines.${name}(${args.map((arg) => JSON.stringify(arg)).join(', ')});`);
  }

  /** Retries `name` until it answers true (a page loading or leaving answers nothing meanwhile). */
  async until(description: string, name: string, ...args: unknown[]): Promise<void> {
    try {
      await until(description, () => this.call<boolean>(name, ...args).catch(() => false), 15_000);
    } catch (error) {
      const shown = await this.call<string>('shown').catch(() => '(unreadable)');
      throw new Error(`${(error as Error).message}; the page shows ${shown}`);
    }
  }

  press(role: string, name: string | RegExp): Promise<void> {
    const query: Query = { role, name: named(name), enabled: true };
    return this.until(`an enabled ${role} ${String(name)}`, 'press', query);
  }

  fill(label: string, value: string): Promise<void> {
    return this.until(`a field ${label}`, 'setField', { label: true, name: named(label) }, value);
  }

  see(text: string | RegExp): Promise<void> {
    return this.until(`the text ${String(text)}`, 'seesText', named(text));
  }

  /** The payer's number, its operator found, then the wallet's approval page or the payment code, and Pay. */
  async pay(phoneNumber: string, way: 'push' | 'otp' | { wallet: 'Approve' | 'Decline' } = 'push'): Promise<void> {
    await this.fill('Mobile money number', phoneNumber);
    await this.see(/MTN MoMo|Moov/);
    // The radio's name starts with its logo's letter ("W Pay with Wallet").
    if (typeof way === 'object') await this.press('radio', /Pay with Wallet$/);
    // A payment-code operator asks for the code on the next step ("Continue").
    await this.press('button', way === 'otp' ? 'Continue' : /^Pay /);
    if (way === 'otp') {
      await this.fill('Payment code', '123456');
      await this.press('button', /^Pay /);
    }
    if (typeof way === 'object') {
      // The sandbox's approval page, opened in the WebView itself, then the way back to the app page.
      await this.see('Approve this payment?');
      await this.press('button', way.wallet);
    }
  }
}

export interface AppOutcome {
  type: 'momo-checkout.outcome';
  orderId: string;
  outcome: 'succeeded' | 'failed';
  state: string;
  canRetry: boolean;
}

/** Waits for the first message, then a while for a second one that must not come; gives the one. */
export async function theOneMessage(host: AppHost, from: 'messages' | 'navigations' = 'messages'): Promise<string> {
  await until(`the outcome in the app's ${from}`, () => host[from].length > 0, 20_000);
  // Long enough for a second event (a stream's repeat, a re-render) to have been sent.
  await new Promise((resolve) => setTimeout(resolve, 800));
  assert.equal(host[from].length, 1, `one outcome, got ${JSON.stringify(host[from])}`);
  return host[from][0]!;
}

/** The message is the outcome the store recorded, and nothing else (no token, no number). */
export async function assertOutcome(h: Harness, message: string, orderId: string, outcome: 'succeeded' | 'failed'): Promise<AppOutcome> {
  const parsed = JSON.parse(message) as AppOutcome;
  assert.deepEqual(Object.keys(parsed).sort(), ['canRetry', 'orderId', 'outcome', 'state', 'type']);
  assert.equal(parsed.type, 'momo-checkout.outcome');
  assert.equal(parsed.orderId, orderId);
  assert.equal(parsed.outcome, outcome);
  assert.equal(parsed.state, outcome === 'succeeded' ? 'completed' : 'failed');
  const recorded = await h.companion.getPayment(orderId);
  assert.equal(recorded?.state, parsed.state, 'the store recorded the outcome the app was told');
  return parsed;
}

/** Nothing an app's WebView cannot do: no new window, no console error, no uncaught exception. */
export function assertQuietPage(host: AppHost): void {
  assert.deepEqual(host.newWindows, [], 'no new window');
  assert.deepEqual(host.problems, [], 'no console error, no uncaught exception');
}

/** The app page's order, the token the bridge kept for it in this WebView, and what the page shows. */
async function pageState(host: AppHost): Promise<{ order: string | null; token: string | null }> {
  return host.run(`return { order: document.querySelector('main')?.dataset.order ?? null, token: document.querySelector('momo-checkout')?.getAttribute('token') ?? null };`);
}

export interface AppFlowSuite {
  /** e.g. 'WebKitGTK, iOS message handler'. */
  name: string;
  /** Opens the app page in the host's WebView, its channel registered as the app registers it. */
  open(url: string): Promise<AppHost>;
  harness(): Harness;
}

/** Push, payment code, wallet approval page and back, a decline, and a reload mid-payment: one outcome each. */
export function appFlowCases(suite: AppFlowSuite, it: (name: string, body: () => Promise<void>) => unknown): void {
  const paid = async (way: Parameters<AppPage['pay']>[1], phoneNumber: string, outcome: 'succeeded' | 'failed') => {
    const h = suite.harness();
    const { orderId, url } = await appCheckout(h);
    const host = await suite.open(url);
    try {
      await new AppPage(host).pay(phoneNumber, way);
      const told = await assertOutcome(h, await theOneMessage(host), orderId, outcome);
      if (typeof way === 'object') {
        // Told on the app page the return route brought the WebView back to (its token kept in the session).
        const back = new URL(await host.run<string>('return location.href;'));
        assert.deepEqual([back.pathname, back.searchParams.get('momo_order'), back.hash], [new URL(h.base).pathname + '/app/checkout', orderId, '']);
      }
      assertQuietPage(host);
      return told;
    } finally {
      await host.close();
    }
  };

  it(`${suite.name}: a push approved reaches the app once, as succeeded`, async () => {
    await paid('push', appNumbers.pushApproves, 'succeeded');
  });

  it(`${suite.name}: a payment code (OTP) payment reaches the app once, as succeeded`, async () => {
    await paid('otp', appNumbers.otpApproves, 'succeeded');
  });

  it(`${suite.name}: the wallet's approval page in the WebView and back reaches the app once, as succeeded`, async () => {
    await paid({ wallet: 'Approve' }, appNumbers.pushApproves, 'succeeded');
  });

  it(`${suite.name}: a declined push reaches the app once, as failed`, async () => {
    const told = await paid('push', appNumbers.pushDeclines, 'failed');
    assert.equal(told.canRetry, true, 'the app may leave the payer on the page to try another number');
  });

  it(`${suite.name}: a reload mid-payment, and another after the outcome, still end with one outcome`, async () => {
    const h = suite.harness();
    const { orderId, url } = await appCheckout(h);
    const host = await suite.open(url);
    try {
      const page = new AppPage(host);
      await page.pay(appNumbers.pushApproves);
      // The pay-in reached the service and the payer's phone is ringing: the WebView reloads.
      await until('the pay-in at the service', () => h.sandbox.control.transactions().some((each) => each.orderId.startsWith(orderId)));
      assert.ok(!['completed', 'failed'].includes((await h.companion.getPayment(orderId))?.state ?? ''), 'the reload comes before the outcome');
      await host.reload();
      await assertOutcome(h, await theOneMessage(host), orderId, 'succeeded');
      await host.reload();
      await page.see('Payment received');
      await theOneMessage(host);
      assertQuietPage(host);
    } finally {
      await host.close();
    }
  });
}

/**
 * A payment link's page in app mode: the payer presses its button, then pays as on the app page.
 * The WebView first held an app page's checkout (its token kept in the session, as a shop's app
 * that sells both ways leaves it): the link's page shows its own payer's checkout, never that one.
 */
export function appLinkFlowCases(suite: AppFlowSuite, it: (name: string, body: () => Promise<void>) => unknown, cases: readonly ('push' | 'wallet' | 'declined' | 'reload')[] = ['push', 'wallet', 'declined', 'reload']): void {
  const paid = async (way: Parameters<AppPage['pay']>[1] | 'push, then a reload', phoneNumber: string, outcome: 'succeeded' | 'failed') => {
    const h = suite.harness();
    const earlier = await appCheckout(h);
    const link = await appLink(h);
    const host = await suite.open(earlier.url);
    try {
      const page = new AppPage(host);
      await page.see(/Mobile money number/);
      // The app opens the link in the same WebView (its session storage holds the app page's token).
      await host.run(`setTimeout(() => location.assign(${JSON.stringify(link.url)})); return true;`);
      await page.see('Pagne wax, 6 yards');
      await page.press('button', /^Pay /);
      await page.see(/Mobile money number/);
      const shown = await pageState(host);
      assert.match(shown.order ?? '', new RegExp(`^${link.linkId}-`), "the link payer's checkout names its order");
      await page.pay(phoneNumber, way === 'push, then a reload' ? 'push' : way);
      if (way === 'push, then a reload') {
        // The payer's phone is ringing: the WebView reloads the page the form's POST answered.
        await until('the pay-in at the service', () => h.sandbox.control.transactions().some((each) => each.orderId.startsWith(shown.order!)));
        await host.reload();
        // Chromium reloads the checkout's own address as a GET; WebKit posts it again, which the companion sends to the GET.
        const same = async () => {
          const after = await pageState(host).catch(() => null);
          return after?.order === shown.order && after.token === shown.token;
        };
        await until('the same checkout after the reload, not the form posted again', same);
      }
      const told = await assertOutcome(h, await theOneMessage(host), shown.order!, outcome);
      if (typeof way === 'object') {
        // Back on the link's page in app mode, its token the one the bridge kept for the order.
        const back = new URL(await host.run<string>('return location.href;'));
        assert.deepEqual([back.pathname, back.searchParams.get('channel'), back.searchParams.get('momo_order')], [new URL(link.url).pathname, appChannel, shown.order]);
        assert.equal((await pageState(host)).token, shown.token, 'the way back shows the same checkout');
      }
      assert.equal(h.sandbox.control.transactions().some((each) => each.orderId.startsWith(earlier.orderId)), false, "the app page's checkout was never paid");
      assertQuietPage(host);
      return told;
    } finally {
      await host.close();
    }
  };

  if (cases.includes('push')) it(`${suite.name}: a payment link in app mode, a push approved, reaches the app once, as succeeded (not the app page's earlier checkout)`, async () => {
    await paid('push', appNumbers.pushApproves, 'succeeded');
  });

  if (cases.includes('wallet')) it(`${suite.name}: a payment link in app mode, the wallet's approval page and back, reaches the app once, as succeeded`, async () => {
    await paid({ wallet: 'Approve' }, appNumbers.pushApproves, 'succeeded');
  });

  if (cases.includes('declined')) it(`${suite.name}: a payment link in app mode, a declined push, reaches the app once, as failed`, async () => {
    const told = await paid('push', appNumbers.pushDeclines, 'failed');
    assert.equal(told.canRetry, true);
  });

  if (cases.includes('reload')) it(`${suite.name}: a payment link in app mode, a reload mid-payment, shows the same checkout and ends with one outcome`, async () => {
    await paid('push, then a reload', appNumbers.pushApproves, 'succeeded');
  });
}
