// `@momo-checkout/element/svelte` (types only): <momo-checkout> in Svelte 5 markup, checked by
// svelte-check. Add it once, e.g. `import type {} from '@momo-checkout/element/svelte'` in
// src/app.d.ts. Svelte 5 binds `onmomo-succeeded` to that exact event name and sets `token`,
// `checkoutView`... as properties when the element has them.
import type { MomoCheckout } from '../dist/element/momo-checkout.js';
import type { MomoErrorEvent, MomoFailedEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent } from '../dist/element/events.js';

export interface MomoCheckoutSvelteProps {
  endpoint?: string | null;
  token?: string | null;
  country?: string | null;
  /** The digits amounts are written in (a CLDR numbering system): `latn` by default, `arab`, ... */
  digits?: string | null;
  'expiry-seconds'?: number | string | null;
  'checkout-view'?: string | null;
  client?: MomoCheckout['client'];
  'onmomo-state-change'?: (event: MomoStateChangeEvent) => void;
  'onmomo-submit'?: (event: MomoSubmitEvent) => void;
  'onmomo-succeeded'?: (event: MomoSucceededEvent) => void;
  'onmomo-failed'?: (event: MomoFailedEvent) => void;
  'onmomo-error'?: (event: MomoErrorEvent) => void;
}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'momo-checkout': HTMLAttributes<MomoCheckout> & MomoCheckoutSvelteProps;
  }
}
