/**
 * What a page opened by a merchant's mobile app reads from its URL's query (issue 54): the app's
 * channel and its return address. The app page (`/app/checkout`) and a payment link's page in app
 * mode (`/l/<linkId>?channel=...`) check them here, one way: the channel is a script identifier,
 * and the return address is followed only when its scheme is one of the merchant's
 * `appReturnSchemes` (never any address the URL carries: that would be an open redirect).
 */
import { appReturnUrl } from '../../model/app-return.js';

/** The channel's name when the app gives none: `window.webkit.messageHandlers.momoCheckout`, `window.momoCheckout`. */
export const defaultAppChannel = 'momoCheckout';
/** Names whose `window[name]` is the window itself or a channel of its own: never an app's object. */
const reservedNames = new Set(['window', 'self', 'top', 'parent', 'frames', 'opener', 'globalThis', 'document', 'location', 'webkit', 'ReactNativeWebView']);

/** The app's side of a page in its WebView, as checked. */
export interface AppQuery {
  channel: string;
  /** The app's return address, its scheme one of `appReturnSchemes`; null for none. */
  returnUrl: URL | null;
}

/** Why `channel` cannot be the app's channel, or null. */
function channelProblem(channel: string): string | null {
  if (!/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/.test(channel)) return `channel ${JSON.stringify(channel)} is not a JavaScript name: give the name your app registered its message handler or JavaScript object under, e.g. channel=${defaultAppChannel}.`;
  if (reservedNames.has(channel)) return `channel ${channel} is a name the browser uses itself: register your app's handler under another name, e.g. ${defaultAppChannel}.`;
  return null;
}

/** Whether a page's query asks for the app's page: a channel or a return address is given. */
export const asksForApp = (query: URLSearchParams): boolean => query.has('channel') || query.has('return');

/** The channel and return address of `query`, or the sentence (for the app's developer) saying what to fix. */
export function appQueryOf(query: URLSearchParams, appReturnSchemes: readonly string[]): AppQuery | { problem: string } {
  const channel = query.get('channel') ?? defaultAppChannel;
  const problem = channelProblem(channel);
  if (problem) return { problem };
  const asked = query.get('return');
  const returnUrl = asked === null ? null : appReturnUrl(asked, appReturnSchemes);
  if (asked !== null && !returnUrl) {
    const schemes = appReturnSchemes.length > 0 ? `its scheme is not one of appReturnSchemes (${appReturnSchemes.join(', ')})` : 'the companion has no appReturnSchemes (MOMO_APP_RETURN_SCHEMES)';
    return { problem: `This page follows no return address whose scheme the shop did not configure: ${schemes}. Add your app's scheme to appReturnSchemes, or leave return out and receive the outcome through the channel.` };
  }
  return { channel, returnUrl };
}

/** `channel=...&return=...` as checked, to carry onto the next page of the same app (a form's action, a checkout's `returnUrl`). */
export function appQueryText(app: AppQuery): string {
  const query = new URLSearchParams({ channel: app.channel });
  if (app.returnUrl) query.set('return', app.returnUrl.href);
  return query.toString();
}
