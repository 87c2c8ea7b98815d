/**
 * The app page's one script (served as a file: the page's CSP allows no inline script), run before
 * the element's: it gives `<momo-checkout>` its token and tells the merchant's app the outcome,
 * once, by the app's own channel (docs/mobile-apps.md).
 *
 * - The token comes in the URL's fragment (`#token=...`), which no server, log or Referer sees, and
 *   is kept in this WebView's sessionStorage: the way back from a wallet's approval page (the
 *   return route's redirect to the checkout's `returnUrl`, this page without its fragment) and a
 *   reload find it there. A payment link's page in app mode (`data-order` on `<main>`) has it in
 *   the page once its form made the payer's checkout, and keeps it under that order, where the way
 *   back (`?momo_order=<orderId>`) looks for it.
 * - The outcome is what the element's `momo-succeeded` / `momo-failed` events carry, which come
 *   only from the companion's record of the payment (a verified notification), never from a
 *   return or a redirect. It is sent once per order and outcome, across reloads (sessionStorage),
 *   by the first channel the WebView has: `window.webkit.messageHandlers.<channel>` (iOS
 *   WKWebView, WebKitGTK), `window.ReactNativeWebView` (react-native-webview), `window.<channel>`
 *   (a Flutter JavaScriptChannel, an Android @JavascriptInterface object), else a navigation to
 *   the app's return address, whose scheme the server checked against `appReturnSchemes`.
 * - The message is a JSON string (the one type every channel carries): the order id, the outcome,
 *   the payment's state and whether another attempt is possible. Nothing secret: no token, no number.
 *
 * Plain JavaScript in a string, as the link page's stylesheet is: it is served as it is written.
 */
export const appBridgeScript = `(() => {
  'use strict';
  const main = document.querySelector('main[data-channel]');
  const checkout = document.querySelector('momo-checkout');
  if (!main || !checkout) return;
  const channel = main.dataset.channel;
  const returnUrl = main.dataset.return || '';
  // Without sessionStorage (an Android WebView without domStorageEnabled) the page still tells the app once per load.
  const memory = new Map();
  const read = (key) => { try { return sessionStorage.getItem(key); } catch { return memory.get(key) ?? null; } };
  const keep = (key, value) => { memory.set(key, value); try { sessionStorage.setItem(key, value); } catch {} };
  // A link's page in app mode names its payer's order (data-order) and holds the token in the page,
  // or, back from a wallet's approval page, finds it under that order: never the app page's key,
  // which an earlier /app/checkout in this WebView may have left with another order's token.
  const order = main.dataset.order;
  const tokenKey = order ? 'momo-app-token:' + order : 'momo-app-token';
  const given = order ? checkout.getAttribute('token') : new URLSearchParams(location.hash.slice(1)).get('token');
  if (given) keep(tokenKey, given);
  // A link's form answered this payer's checkout (a POST): the address becomes the way back's
  // (momo_order, its token kept), so a reload shows this checkout again instead of posting the form
  // for another one, which a single-use link held by this payment would refuse. Chromium reloads
  // it as a GET; WebKit posts it again, and the server sends that post to the GET.
  if (order && given) {
    const here = new URL(location.href);
    here.searchParams.set('momo_order', order);
    history.replaceState(history.state, '', here.href);
  }
  const token = given || read(tokenKey);
  if (token) checkout.setAttribute('token', token);
  // In an app the phone is the device: the approval page opens here, never as a QR code for another one.
  checkout.phoneHandoff = () => false;

  function send(message, orderId, outcome) {
    const handlers = window.webkit && window.webkit.messageHandlers;
    if (handlers && handlers[channel]) return handlers[channel].postMessage(message);
    if (window.ReactNativeWebView) return window.ReactNativeWebView.postMessage(message);
    const object = window[channel];
    if (object && typeof object.postMessage === 'function') return object.postMessage(message);
    if (!returnUrl) {
      console.error('momo-checkout app page: this WebView has no ' + channel + ' channel and the page no return address; see docs/mobile-apps.md');
      return;
    }
    const target = new URL(returnUrl);
    target.searchParams.set('orderId', orderId);
    target.searchParams.set('outcome', outcome);
    location.assign(target.href);
  }

  function tell(event, outcome) {
    const { orderId, payment } = event.detail;
    const told = 'momo-app-told:' + orderId + ':' + outcome;
    if (read(told)) return;
    keep(told, '1');
    send(JSON.stringify({ type: 'momo-checkout.outcome', orderId, outcome, state: payment.state, canRetry: payment.canRetry === true }), orderId, outcome);
  }
  checkout.addEventListener('momo-succeeded', (event) => tell(event, 'succeeded'));
  checkout.addEventListener('momo-failed', (event) => tell(event, 'failed'));
})();
`;
