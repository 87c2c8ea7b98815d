/**
 * Types for `<momo-checkout>` written directly in React JSX, for React 18 and 19, with nothing but
 * React's own types (no `@lit/react`): the browser package's `define` entry brings them, and so does
 * the wrapper, from this one file (two declarations of the tag would clash).
 *
 * React 19 sets a prop as a property when the element has one (`token`, `expirySeconds`,
 * `checkoutView`) and binds `onmomo-<name>` to that exact event. React 18 writes every prop as an
 * attribute and binds no custom event: there use the kebab-case attributes, and the wrapper
 * (`momo-checkout/react`) or a `ref` for the events.
 */
import type * as React from 'react';
import type { MomoCheckout } from '../element/momo-checkout.js';
import type { MomoErrorEvent, MomoFailedEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent } from '../element/events.js';

/** The element's own attributes (React 18 and 19) and properties (React 19). */
export interface MomoCheckoutAttributes {
  endpoint?: string;
  token?: string;
  country?: string;
  /** The digits amounts are written in (a CLDR numbering system): `latn` by default, `arab`, ... */
  digits?: string;
  'expiry-seconds'?: number | string;
  'checkout-view'?: string;
  expirySeconds?: number;
  checkoutView?: string;
  client?: MomoCheckout['client'];
}

/** React 19's custom-element events: `on` + the exact event name. */
export interface MomoCheckoutEventProps {
  'onmomo-state-change'?: (event: MomoStateChangeEvent) => void;
  'onmomo-submit'?: (event: MomoSubmitEvent) => void;
  'onmomo-succeeded'?: (event: MomoSucceededEvent) => void;
  'onmomo-failed'?: (event: MomoFailedEvent) => void;
  'onmomo-error'?: (event: MomoErrorEvent) => void;
}

// An app without React (Vue, Svelte) that loads these types through `define` does not resolve
// 'react': with skipLibCheck (every framework's template sets it) the augmentation is then ignored.
declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX types live in a namespace.
  namespace JSX {
    interface IntrinsicElements {
      'momo-checkout': React.DetailedHTMLProps<React.HTMLAttributes<MomoCheckout>, MomoCheckout> & MomoCheckoutAttributes & MomoCheckoutEventProps;
    }
  }
}
