// momo-checkout: Next.js lib/momo.ts
import { companionOptionsFromEnv, createCompanion, type Companion } from 'momo-checkout/server';

// The companion is created on first use, not when the module loads: `next build` loads route
// modules while "Collecting page data", where no MOMO_* variable needs to be set. Kept on
// globalThis so the route handler and the pages, bundled apart, share one companion per process.
const holder = globalThis as typeof globalThis & { momoCompanion?: Companion };

export function momo(): Companion {
  if (!holder.momoCompanion) {
    // MOMO_BASE_URL, MOMO_API_KEY, MOMO_WEBHOOK_SECRETS, MOMO_PUBLIC_URL (https://shop.example/momo), ...
    const { port: _port, host: _host, ...options } = companionOptionsFromEnv(process.env);
    holder.momoCompanion = createCompanion(options);
  }
  return holder.momoCompanion;
}
