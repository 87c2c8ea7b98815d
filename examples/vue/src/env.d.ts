// momo-checkout: Vue src/env.d.ts
// <momo-checkout>'s attributes and events in templates, checked by vue-tsc.
import type {} from '@momo-checkout/element/vue';
