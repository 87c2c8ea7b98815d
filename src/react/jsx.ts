/**
 * Types for `<momo-checkout>` written directly in React JSX (without the wrapper): its properties
 * as optional props. Events need `ref` + `addEventListener` there (React 18 does not bind custom
 * events); the wrapper's `onMomo*` props do that for you.
 */
import type { WebComponentProps } from '@lit/react';
import type { MomoCheckout } from '../element/momo-checkout.js';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX types live in a namespace.
  namespace JSX {
    interface IntrinsicElements {
      'momo-checkout': WebComponentProps<MomoCheckout>;
    }
  }
}

export {};
