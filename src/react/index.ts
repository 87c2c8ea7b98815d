'use client';
/**
 * `momo-checkout/react`: `<MomoCheckout>` for React, a `@lit/react` wrapper around the custom
 * element. Properties (`client`, `expirySeconds`, ...) are set as properties, not stringified into
 * attributes, and the element's events are typed React props.
 *
 * Needs `react` (18 or later) and `@lit/react` in your project: both are optional peer dependencies
 * of momo-checkout, so a server-only or plain-HTML project does not install them. Install them with
 * `npm install @lit/react` (React projects already have `react`).
 *
 * Marked `'use client'`: in a Next.js App Router page (a Server Component) it renders as a client
 * component, because it holds a ref and effects. Pass it only serialisable props there (strings);
 * event handlers need a client component of yours around it.
 *
 * Importing this module registers `<momo-checkout>` (through `../define.js`, which is guarded, so
 * it is a no-op in Node during server-side rendering and when a script tag already registered it).
 *
 * @example
 * ```tsx
 * import { MomoCheckout } from 'momo-checkout/react';
 * import 'momo-checkout/languages/fr';
 *
 * <MomoCheckout endpoint="/momo" token={token} lang="fr"
 *   onMomoSucceeded={(event) => router.push(`/thanks?order=${event.detail.orderId}`)}
 *   onMomoError={(event) => log.warn(event.detail.code, event.detail.message)} />
 * ```
 */
import * as React from 'react';
import { createComponent } from '@lit/react';
import type { EventName } from '@lit/react';
import { MomoCheckout as MomoCheckoutElement } from '../define.js';
import type { MomoErrorEvent, MomoFailedEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent } from '../element/events.js';
import './jsx.js';

/** React prop name → the element's event, typed so handlers receive the event subclass. */
export const momoCheckoutEvents = {
  onMomoStateChange: 'momo-state-change' as EventName<MomoStateChangeEvent>,
  onMomoSubmit: 'momo-submit' as EventName<MomoSubmitEvent>,
  onMomoSucceeded: 'momo-succeeded' as EventName<MomoSucceededEvent>,
  onMomoFailed: 'momo-failed' as EventName<MomoFailedEvent>,
  onMomoError: 'momo-error' as EventName<MomoErrorEvent>,
};

/** `<momo-checkout>` as a React component; `ref` gives the element. */
export const MomoCheckout = createComponent({
  react: React,
  tagName: 'momo-checkout',
  elementClass: MomoCheckoutElement,
  events: momoCheckoutEvents,
  displayName: 'MomoCheckout',
});

export type MomoCheckoutProps = React.ComponentProps<typeof MomoCheckout>;
export { MomoCheckoutElement };
export type { MomoErrorEvent, MomoFailedEvent, MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent };
