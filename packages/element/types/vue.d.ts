// `@momo-checkout/element/vue` (types only): <momo-checkout> in Vue templates, checked by vue-tsc.
// Add it once, e.g. `import type {} from '@momo-checkout/element/vue'` in src/env.d.ts.
// Vue compiles `@momo-succeeded` to the prop `onMomoSucceeded` and `:expiry-seconds` to
// `expirySeconds`, so typing those props types the handler's event and the bound values.
import type { MomoCheckout } from '../dist/element/momo-checkout.js';
import type { MomoErrorEvent, MomoFailedEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent } from '../dist/element/events.js';

export interface MomoCheckoutVueProps {
  endpoint?: string;
  token?: string;
  lang?: string;
  country?: string;
  /** The digits amounts are written in (a CLDR numbering system): `latn` by default, `arab`, ... */
  digits?: string;
  expirySeconds?: number | string;
  checkoutView?: string;
  client?: MomoCheckout['client'];
  onMomoStateChange?: (event: MomoStateChangeEvent) => void;
  onMomoSubmit?: (event: MomoSubmitEvent) => void;
  onMomoSucceeded?: (event: MomoSucceededEvent) => void;
  onMomoFailed?: (event: MomoFailedEvent) => void;
  onMomoError?: (event: MomoErrorEvent) => void;
}

// A constructor with `$props`, not `DefineComponent<Props>`: Vue reads an object of optional
// functions given to DefineComponent as runtime prop options, and the handlers' events become `any`.
declare module 'vue' {
  interface GlobalComponents {
    'momo-checkout': new () => { $props: MomoCheckoutVueProps };
  }
}
