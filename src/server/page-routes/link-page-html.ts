/**
 * A payment link's page as HTML (link-page-routes.ts serves it): the shop, what is paid for, the
 * amount or a field for it within the link's bounds, and `<momo-checkout>` once a checkout is made;
 * Open Graph and Twitter meta so that a chat app shows a card with the shop and the amount; or the
 * page saying, in the payer's language, that the link takes no payment. No inline script or style:
 * it runs under a CSP of `'self'` only.
 */
import { formatAmount } from '../../contract/money.js';
import type { PayerAmountProblem } from '../links/link-rules.js';
import type { LinkRecord, LinkStanding } from '../model/link.js';
import { linkPageText, type LinkPageLanguage } from './link-page-text.js';

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

export interface LinkPageShop {
  name: string;
  /** An https URL of the shop's logo, or none. */
  logoUrl?: string | undefined;
}

export interface LinkPageParts {
  language: LinkPageLanguage;
  shop: LinkPageShop;
  /** `<mount>/l/assets`: the stylesheet and the element's files. */
  assets: string;
  /** The link page's own URL (its card's). */
  url: string;
  /** Where its form posts: the URL, with the language the page was opened in, if one was asked (and the app's query). */
  formAction: string;
  /** Set when a mobile app opened the page in its WebView (`?channel=`): the page is {@link appLayout}'s. */
  app?: AppFrame | undefined;
}

/**
 * A page in a mobile app's WebView (issue 54, app-page/): what the bridge script reads from `<main>`.
 */
export interface AppFrame {
  channel: string;
  /** The app's return address, already checked against `appReturnSchemes`; '' for none. */
  returnUrl: string;
  /** `<mount>/app/assets/app.js`: the bridge script, run before the element's. */
  bridgeScript: string;
  /** A link's payer's checkout: the bridge keeps its token under this order, never under another page's key. */
  orderId?: string | undefined;
}

const money = (amount: string, link: LinkRecord, language: LinkPageLanguage) => formatAmount(amount, link.currencyCode, language);

/** What the card of a chat app shows: the amount (or its bounds) and the description. */
function cardText(link: LinkRecord, language: LinkPageLanguage): string {
  const price = link.amount !== null ? money(link.amount, link, language) : `${money(link.minAmount!, link, language)} – ${money(link.maxAmount!, link, language)}`;
  return `${price} · ${link.description}`;
}

/**
 * Whether search engines may index a page: only a reusable link's own page, which a shop posts
 * where anyone may find it (a product on its social media page, as Paystack's payment pages are).
 * A single-use link is one buyer's (an invoice sent by WhatsApp), a payer's checkout holds their
 * token, and a closed link's page has nothing to find: `noindex`.
 */
type Indexing = 'index' | 'noindex';

function layout(parts: LinkPageParts, title: string, description: string, body: string, head = '', indexing: Indexing = 'noindex'): string {
  if (parts.app) return appLayout(parts, parts.app, title, body, head);
  const { shop, language } = parts;
  const logo = shop.logoUrl ? `<img class="logo" src="${escapeHtml(shop.logoUrl)}" alt="" width="48" height="48">` : '';
  return `<!doctype html>
<html lang="${language}"${language === 'ar' ? ' dir="rtl"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${escapeHtml(shop.name)}">
<meta property="og:title" content="${escapeHtml(title)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(parts.url)}">
${shop.logoUrl ? `<meta property="og:image" content="${escapeHtml(shop.logoUrl)}">\n` : ''}<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${escapeHtml(title)}">
<meta name="twitter:description" content="${escapeHtml(description)}">
${indexing === 'noindex' ? '<meta name="robots" content="noindex">\n' : ''}<link rel="icon" href="${escapeHtml(shop.logoUrl ?? `${parts.assets}/icon.svg`)}">
<link rel="stylesheet" href="${escapeHtml(parts.assets)}/link.css">
${head}</head>
<body>
<main>
<header>${logo}<h1>${escapeHtml(shop.name)}</h1></header>
${body}
</main>
</body>
</html>
`;
}

/**
 * A page as a mobile app's WebView shows it: the body alone, sized for a phone, with no header, no
 * card and no link out (the app draws its own bar and its own way back); the bridge script runs
 * before `head`'s (the element's), and the channel and return address ride on `<main>`.
 */
export function appLayout(page: Pick<LinkPageParts, 'language' | 'assets'>, app: AppFrame, title: string, body: string, head = ''): string {
  const { language } = page;
  const order = app.orderId === undefined ? '' : ` data-order="${escapeHtml(app.orderId)}"`;
  return `<!doctype html>
<html lang="${language}"${language === 'ar' ? ' dir="rtl"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${escapeHtml(title)}</title>
<meta name="robots" content="noindex">
<link rel="icon" href="${escapeHtml(page.assets)}/icon.svg">
<link rel="stylesheet" href="${escapeHtml(page.assets)}/link.css">
<script src="${escapeHtml(app.bridgeScript)}" defer></script>
${head}</head>
<body>
<main class="app" data-channel="${escapeHtml(app.channel)}" data-return="${escapeHtml(app.returnUrl)}"${order}>
${body}
</main>
</body>
</html>
`;
}

/** The element's script tag, from the link pages' assets. */
export const elementScriptTag = (assets: string, script: { file: string; integrity: string }): string =>
  `<script src="${escapeHtml(`${assets}/${script.file}`)}" integrity="${escapeHtml(script.integrity)}" defer></script>\n`;

/** The page of an open link: the amount and a button, or the amount field within the bounds (`problem`: why the last one was refused). */
export function linkFormPage(parts: LinkPageParts, link: LinkRecord, problem?: { amount: string; message: string }): string {
  const text = linkPageText[parts.language];
  const field =
    link.amount !== null
      ? `<p class="amount">${escapeHtml(money(link.amount, link, parts.language))}</p>`
      : `<label for="amount">${escapeHtml(text.amountLabel(link.currencyCode))}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" required value="${escapeHtml(problem?.amount ?? '')}" aria-describedby="bounds${problem ? ' problem' : ''}"${problem ? ' aria-invalid="true"' : ''}>
<p id="bounds" class="hint">${escapeHtml(text.bounds(money(link.minAmount!, link, parts.language), money(link.maxAmount!, link, parts.language)))}</p>`;
  const refusal = problem ? `\n<p id="problem" class="problem" role="alert">${escapeHtml(problem.message)}</p>` : '';
  const body = `<p class="description">${escapeHtml(link.description)}</p>
<form method="post" action="${escapeHtml(parts.formAction)}">
${field}${refusal}
<button type="submit">${escapeHtml(link.amount !== null ? text.pay(parts.shop.name) : text.continue)}</button>
</form>`;
  return layout(parts, text.pay(parts.shop.name), cardText(link, parts.language), body, '', link.reusable ? 'index' : 'noindex');
}

/** Why the payer's amount was refused, in their language, the bounds written as the page shows them. */
export function amountProblemText(language: LinkPageLanguage, link: LinkRecord, problem: PayerAmountProblem, decimals: number): string {
  const words = linkPageText[language].amountProblem;
  if (problem === 'empty') return words.empty;
  if (problem === 'digits') return words.digits(decimals === 0 ? '2500' : '12.50');
  if (problem === 'too-precise') return words.tooPrecise(decimals);
  return words.outOfBounds(money(link.minAmount!, link, language), money(link.maxAmount!, link, language));
}

/**
 * The page with the checkout of this payer: `<momo-checkout>` on the companion's own routes. In an
 * app's WebView coming back from a wallet's approval page, the token is the one the bridge script
 * kept for the order (null here) and the amount is the payer's own only when the link fixes it
 * (null: the element shows it; the page shows nothing of a payment it was not given the token of).
 */
export function linkCheckoutPage(parts: LinkPageParts, link: LinkRecord, checkout: { token: string | null; endpoint: string; amount: string | null }, script: { file: string; integrity: string }): string {
  const text = linkPageText[parts.language];
  const amount = checkout.amount === null ? '' : `\n<p class="amount">${escapeHtml(money(checkout.amount, link, parts.language))}</p>`;
  const token = checkout.token === null ? '' : ` token="${escapeHtml(checkout.token)}"`;
  const body = `<p class="description">${escapeHtml(link.description)}</p>${amount}
<momo-checkout endpoint="${escapeHtml(checkout.endpoint)}"${token} lang="${parts.language}"></momo-checkout>`;
  return layout(parts, text.pay(parts.shop.name), cardText(link, parts.language), body, elementScriptTag(parts.assets, script));
}

/** The page of a link that takes no payment (410), or of no link (404). */
export function linkGonePage(parts: LinkPageParts, standing: Exclude<LinkStanding, 'open'> | 'unknown'): string {
  const text = linkPageText[parts.language];
  const title = text.gone[standing];
  const body = `<h2>${escapeHtml(title)}</h2>\n<p>${escapeHtml(text.goneHint(parts.shop.name))}</p>`;
  return layout(parts, title, title, body);
}

/** The page saying this link's page cannot be made now (503): the store does not answer, or the element's files are missing. */
export function linkUnavailablePage(parts: LinkPageParts): string {
  const text = linkPageText[parts.language];
  const body = `<h2>${escapeHtml(text.unavailable)}</h2>\n<p>${escapeHtml(text.unavailableHint)}</p>`;
  return layout(parts, text.unavailable, text.unavailable, body);
}

/**
 * The tab's icon when the shop configured no logo: without one a browser asks the origin's
 * `/favicon.ico`, which the merchant's server may answer 404 (an error in the payer's console).
 */
export const linkPageIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0b5d1e"/><path d="M9 22V10l7 7 7-7v12" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** The page's stylesheet (served as a file: the CSP allows no inline style). Sized for a phone first. */
export const linkPageStylesheet = `:root{color-scheme:light;font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1b;background:#f6f6f4}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
header{display:flex;align-items:center;gap:.75rem}
h1{font-size:1.25rem;margin:0}
.logo{border-radius:8px}
.amount{font-size:1.75rem;font-weight:700;margin:.5rem 0 1rem}
.description{margin:1rem 0 0}
label{display:block;font-weight:600;margin-top:1rem}
input{font:inherit;font-size:1.25rem;width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #6b6b6b;border-radius:8px;margin-top:.25rem}
.hint{color:#4a4a4a;margin:.25rem 0}
.problem{color:#a4161a;font-weight:600}
button{font:inherit;font-weight:600;width:100%;min-height:48px;margin-top:1rem;border:0;border-radius:8px;background:#0b5d1e;color:#fff}
momo-checkout{display:block;min-height:22rem;margin-top:1rem}
`;
