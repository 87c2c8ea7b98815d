/**
 * The app page as HTML (app-page-routes.ts serves it): `<momo-checkout>` alone, sized for a phone,
 * for a merchant's mobile app to open in a WebView, in the frame a link's page in app mode has too
 * (link-page-html.ts `appLayout`: no header, no link out, no new window; the bridge script,
 * app-bridge-script.ts, runs first and gives the element its token; the channel and the checked
 * return address ride on `<main>`).
 */
import { appLayout, elementScriptTag, escapeHtml } from '../link-page-html.js';
import { linkPageText, type LinkPageLanguage } from '../link-page-text.js';

export interface AppPageParts {
  language: LinkPageLanguage;
  shopName: string;
  /** `<mount>`: the element's endpoint. */
  endpoint: string;
  /** `<mount>/l/assets`: the stylesheet and the element's files, shared with the link pages. */
  linkAssets: string;
  /** `<mount>/app/assets/app.js`. */
  bridgeScript: string;
  channel: string;
  /** The app's return address, already checked against `appReturnSchemes`; '' for none. */
  returnUrl: string;
}

export function appCheckoutPage(parts: AppPageParts, script: { file: string; integrity: string }): string {
  const { language } = parts;
  const body = `<momo-checkout endpoint="${escapeHtml(parts.endpoint)}" lang="${language}"></momo-checkout>`;
  const app = { channel: parts.channel, returnUrl: parts.returnUrl, bridgeScript: parts.bridgeScript };
  return appLayout({ language, assets: parts.linkAssets }, app, linkPageText[language].pay(parts.shopName), body, elementScriptTag(parts.linkAssets, script));
}

/** The page a developer sees when the app opened it with a channel or return address it cannot use (400). */
export function appPageRefusal(problem: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Payment</title><p>${escapeHtml(problem)}</p></html>`;
}
