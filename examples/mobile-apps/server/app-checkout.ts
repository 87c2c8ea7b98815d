// Your backend's route the app calls to pay an order (authenticated as your app's user, as the
// rest of your app's API is). It answers the address the app opens in its WebView.
import type { Companion } from 'momo-checkout/server';

export async function appCheckoutUrl(momo: Companion, publicUrl: string, order: { orderId: string; amount: string; currencyCode: string }): Promise<string> {
  const page = new URL(`${publicUrl}/app/checkout`);
  page.searchParams.set('channel', 'momoCheckout');
  // A wallet's approval page comes back here (the page keeps the token in the WebView's session).
  const { token } = await momo.createCheckout({ ...order, returnUrl: page.href });
  // The token in the fragment: no server, log or Referer ever sees it.
  return `${page.href}#token=${encodeURIComponent(token)}`;
}
