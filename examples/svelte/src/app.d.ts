// momo-checkout: Svelte src/app.d.ts
// <momo-checkout>'s attributes and events in markup, checked by svelte-check.
import type {} from '@momo-checkout/element/svelte';
