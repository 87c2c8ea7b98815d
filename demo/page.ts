/**
 * The demo merchant's checkout page, rendered on the server. No inline script or style anywhere
 * (the page runs under demoCsp()): behaviour lives in /assets/demo.js, looks in /assets/demo.css.
 * Every value is HTML-escaped: the order id and amount come from the query string.
 */
import { formatAmount } from '../src/contract/money.js';
import type { TestNumber } from '../src/sandbox/index.js';
import { demoStyle } from './inline-style.js';
import type { DemoOrder } from './order.js';

export const shopName = 'Maison Adjoa';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/**
 * `5000 XOF` as a payer reads it (`F CFA 5,000`); a code Intl does not know stays as written.
 * The element's own formatter: exact decimal strings, never rounded (`12.345 USD` is `$12.345`).
 */
export function formatMoney(amount: string, currencyCode: string, locale = 'en'): string {
  return formatAmount(amount, currencyCode, locale);
}

/** `BJ` as a person reads it in `lang`: `Benin` in English, `Bénin` in French (Node's ICU). */
export function countryName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export interface ServiceDescription {
  kind: 'sandbox' | 'service';
  /** Where the companion reaches the payment service. */
  url: string;
}

/** The URL of a static file by name (versioned: `/assets/demo.css?v=…`); bare paths by default. */
export type AssetUrl = (name: string) => string;
const bareAssetUrl: AssetUrl = (name) => `/assets/${name}`;

interface PageParts {
  title: string;
  main: string;
  service: ServiceDescription;
  assetUrl?: AssetUrl | undefined;
  /** The checkout's language when it is not English: the page includes that language's file. */
  checkoutLang?: string;
  /** The page's own address (an order's `/?order=…`), which demo.js puts in the address bar. */
  address?: string;
}

const description = 'Maison Adjoa, a demo store: pay your order by mobile money (MTN MoMo, Orange Money, Moov, Wave) with the momo-checkout element.';

function layout({ title, main, service, assetUrl = bareAssetUrl, checkoutLang, address }: PageParts): string {
  const languageScript =
    // Before the element's file: its first render is already in the payer's language.
    checkoutLang && checkoutLang !== 'en' ? `<script src="${escapeHtml(assetUrl(`momo-checkout.${checkoutLang}.js`))}" defer></script>\n` : '';
  // The checkout's file first in the head, at high priority (Chromium fetches a deferred script at
  // low priority, behind the page's other requests): on Slow 3G its 25 KB are most of the time to a
  // usable field (issue 32, bench/page-load.ts). defer: it runs once the page, element included, is parsed.
  const checkoutScript = `<script src="${escapeHtml(assetUrl('momo-checkout.js'))}" defer fetchpriority="high"></script>\n`;
  const serviceLine =
    service.kind === 'sandbox'
      ? 'Payments go to the <strong>local sandbox</strong>: no real money moves and no phone is contacted.'
      : `Payments go to the payment service at <code>${escapeHtml(service.url)}</code>: <strong>real prompts, real money</strong>.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${shopName}</title>
${languageScript}${checkoutScript}
<meta name="description" content="${escapeHtml(description)}">
<style>${demoStyle}</style>
<script src="${escapeHtml(assetUrl('demo.js'))}" defer></script>
</head>
<body${address ? ` data-address="${escapeHtml(address)}"` : ''}>
<header class="shop-bar">
<a class="shop" href="/"><span class="shop-logo" aria-hidden="true">MA</span><span class="shop-name">${shopName}</span></a>
<span class="demo-badge">Demo store</span>
</header>
${main}
<footer class="service-line"><p>${serviceLine}</p></footer>
</body>
</html>
`;
}

function testNumbersSection(numbers: readonly TestNumber[], otp: string, lang: string): string {
  const rows = numbers
    .map(
      (entry) =>
        `<tr><td><code>${escapeHtml(entry.phoneNumber)}</code></td><td>${escapeHtml(countryName(entry.country, lang))}</td><td>${escapeHtml(entry.operatorCode)}</td><td>${escapeHtml(flowName(entry.workflow))}</td><td>${escapeHtml(entry.outcome)}</td></tr>`,
    )
    .join('\n');
  return `<details class="test-numbers" open>
<summary>Sandbox test numbers</summary>
<p>Type one of these in the checkout. Payment codes (OTP): <code>${escapeHtml(otp)}</code> is accepted, any other code is refused. Any other number with a known prefix is approved. Numbers of Benin, Côte d’Ivoire and Senegal can also choose the overlay wallet, which opens an approval page.</p>
<div class="table-scroll">
<table>
<thead><tr><th scope="col">Number</th><th scope="col">Country</th><th scope="col">Operator</th><th scope="col">Approval</th><th scope="col">Outcome</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
</details>`;
}

function flowName(workflow: string): string {
  if (workflow === 'provider_auth') return 'push on the phone';
  if (workflow === 'pre_authorized') return 'payment code (OTP)';
  if (workflow === 'redirect_url') return 'approval page';
  return workflow;
}

export interface CheckoutPageInput {
  order: DemoOrder;
  token: string;
  /** The companion's mount path, e.g. `/momo`: the element's `endpoint`. */
  endpoint: string;
  /** `en`, or a language whose file the page includes (demo/app.ts). */
  lang: string;
  service: ServiceDescription;
  testNumbers: readonly TestNumber[] | null;
  otp: string;
  assetUrl?: AssetUrl;
  /** The companion's `GET /checkout` answer for this token (JSON), embedded for the element; null to let it ask. */
  checkoutView?: string | null;
  /** The order's own address (`/?order=…`): where a reload must come back to. */
  address?: string;
}

export function checkoutPage(input: CheckoutPageInput): string {
  const { order } = input;
  const lines = order.lines
    .map((line) => `<li><span>${escapeHtml(line.label)}</span><span>${escapeHtml(formatMoney(line.amount, order.currencyCode))}</span></li>`)
    .join('\n');
  const expiry = order.expirySeconds !== null ? ` expiry-seconds="${order.expirySeconds}"` : '';
  const view = input.checkoutView ? ` checkout-view="${escapeHtml(input.checkoutView)}"` : '';
  const main = `<main class="checkout">
<section class="summary" aria-labelledby="summary-heading">
<h1 id="summary-heading">Your order</h1>
<p class="order-ref">Order <code>${escapeHtml(order.orderId)}</code></p>
<ul class="lines">
${lines}
</ul>
<p class="total"><span>Total</span><strong class="total-amount" data-amount="${escapeHtml(order.amount)}" data-currency="${escapeHtml(order.currencyCode)}">${escapeHtml(formatMoney(order.amount, order.currencyCode))}</strong></p>
<p class="paid-banner" role="status" hidden>Order paid. Thank you! We are preparing it.</p>
<p class="new-order"><a href="/">Start a new order</a></p>
</section>
<section class="payment" aria-labelledby="payment-heading">
<h2 id="payment-heading">Payment</h2>
<momo-checkout endpoint="${escapeHtml(input.endpoint)}" token="${escapeHtml(input.token)}" lang="${input.lang}"${expiry}${view}></momo-checkout>
</section>
${input.testNumbers ? testNumbersSection(input.testNumbers, input.otp, input.lang) : ''}
</main>`;
  return layout({ title: 'Checkout', main, service: input.service, assetUrl: input.assetUrl, checkoutLang: input.lang, ...(input.address ? { address: input.address } : {}) });
}

/** A wrong query (amount, currency, order id): a clear message and a way out, never a crash. */
export function problemPage(message: string, service: ServiceDescription): string {
  const main = `<main class="checkout checkout-problem">
<section class="summary" aria-labelledby="problem-heading">
<h1 id="problem-heading">This order cannot be shown</h1>
<p class="problem" role="alert">${escapeHtml(message)}</p>
<p class="new-order"><a href="/">Start a new order</a></p>
</section>
</main>`;
  return layout({ title: 'Order problem', main, service });
}

/**
 * An order id this visitor did not place (or that the demo no longer holds): nothing of it is
 * shown, not even whether it exists, and the way out is a new order.
 */
export function orderNotFoundPage(service: ServiceDescription): string {
  const main = `<main class="checkout checkout-problem">
<section class="summary" aria-labelledby="problem-heading">
<h1 id="problem-heading">Order not found</h1>
<p class="problem" role="alert">We cannot find this order in this browser. An order is shown only to the browser that placed it (and only while the demo runs).</p>
<p class="new-order"><a href="/">Start a new order</a></p>
</section>
</main>`;
  return layout({ title: 'Order not found', main, service });
}
