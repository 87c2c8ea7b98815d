/**
 * The checkout's view the merchant's server rendered into the page (the `checkout-view` attribute,
 * issue 10): it saves the element its first round trip. Read leniently: a view that is not the
 * companion's `GET /checkout` answer, or has expired, is ignored with a word to the page's
 * developer, and the element loads the checkout from the companion as if there were none.
 */
import type { CheckoutView } from '../../contract/companion.js';
import { checkoutView } from '../../client/guards.js';

/** The view in `text` when it is usable now, else null. */
export function embeddedView(text: string): CheckoutView | null {
  if (!text) return null;
  try {
    const view = checkoutView(JSON.parse(text));
    if (Date.parse(view.expiresAt) > Date.now()) return view;
  } catch (error) {
    console.warn(
      `<momo-checkout>: the checkout-view attribute is not the companion's GET /checkout answer (${error instanceof Error ? error.message : String(error)}); loading the checkout from the companion instead.`,
    );
  }
  return null;
}
