/**
 * Registers `<momo-checkout>`: the script-tag bundle's entry. Idempotent: a page that loads two
 * copies (two scripts, or an app that already registered it) keeps the first and does not throw.
 */
import { MomoCheckout } from './element/momo-checkout.js';

// Only the element: the script-tag bundle carries nothing a payer's page does not run (the npm entry
// `momo-checkout` exports the rest: clients, events, types).
export { MomoCheckout };

if (typeof customElements !== 'undefined' && !customElements.get('momo-checkout')) {
  customElements.define('momo-checkout', MomoCheckout);
}
