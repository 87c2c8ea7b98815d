/**
 * `doctor`'s checks of what `serve` adds and of who may use the checkout: the allowed origins
 * against the companion's own origin and the shop's (its notification endpoint and return page),
 * the server secret, and the merchant notification pair. Read from the environment as `serve` reads
 * it, each problem said with its fix, all of them in one run.
 */
import { CompanionConfigError } from '../config-error.js';
import { checkMerchantWebhookOptions } from '../deliveries/merchant-notifications.js';
import { merchantEventsFromEnv } from '../deliveries/merchant-events.js';
import { checkServerSecret } from '../server-api/server-secret.js';
import type { SetupCheck } from '../setup/setup-checks.js';

type Env = Record<string, string | undefined>;

export function standaloneChecks(env: Env): SetupCheck[] {
  return [originCheck(env), serverSecretCheck(env), merchantEndpointCheck(env)];
}

function originOf(text: string | undefined): string | null {
  try {
    return text ? new URL(text.trim()).origin : null;
  } catch {
    return null;
  }
}

function originCheck(env: Env): SetupCheck {
  const name = 'allowed origins';
  const publicOrigin = originOf(env.MOMO_PUBLIC_URL);
  const listed = (env.MOMO_ALLOWED_ORIGINS ?? '').split(',').map((item) => item.trim().replace(/\/$/, '')).filter(Boolean);
  const allowed = listed.length > 0 ? listed : publicOrigin ? [publicOrigin] : [];
  // Where the shop's own pages and backend live, as far as the environment says.
  const shopOrigins = [originOf(env.MOMO_MERCHANT_WEBHOOK_URL), originOf(env.MOMO_RETURN_URL)].filter((origin): origin is string => origin !== null);
  const missing = [...new Set(shopOrigins.filter((origin) => !allowed.includes(origin)))];
  if (missing.length > 0) {
    return {
      name,
      status: 'warning',
      message: `${missing.join(', ')} (your shop, from MOMO_MERCHANT_WEBHOOK_URL or MOMO_RETURN_URL) is not an allowed origin: if the page showing <momo-checkout> is there, the browser's requests are refused (a 403 preflight; the payer is told the payment service cannot be reached). Set MOMO_ALLOWED_ORIGINS=${[...new Set([...listed, ...missing])].join(',')}.`,
    };
  }
  if (listed.length === 0) {
    return {
      name,
      status: 'warning',
      message: `MOMO_ALLOWED_ORIGINS is not set: only pages on ${publicOrigin ?? "the public URL's origin"} may use the checkout. If your shop's pages are on another origin (another port counts), set MOMO_ALLOWED_ORIGINS to it, e.g. MOMO_ALLOWED_ORIGINS=https://shop.example.`,
    };
  }
  return { name, status: 'ok', message: `pages on ${allowed.join(', ')} may use the checkout.` };
}

function serverSecretCheck(env: Env): SetupCheck {
  const name = 'server secret';
  const secret = env.MOMO_SERVER_SECRET?.trim();
  if (!secret) {
    return { name, status: 'warning', message: 'MOMO_SERVER_SECRET is not set: `momo-checkout serve` needs it (your backend sends it to the server API). Generate one with: openssl rand -hex 32' };
  }
  return asCheck(name, () => checkServerSecret(secret), 'set; the server API accepts it.');
}

function merchantEndpointCheck(env: Env): SetupCheck {
  const name = 'merchant notifications';
  const url = env.MOMO_MERCHANT_WEBHOOK_URL?.trim() || undefined;
  const secret = env.MOMO_MERCHANT_WEBHOOK_SECRET?.trim() || undefined;
  if (url === undefined && secret === undefined) {
    return {
      name,
      status: 'warning',
      message: 'MOMO_MERCHANT_WEBHOOK_URL and MOMO_MERCHANT_WEBHOOK_SECRET are not set: your backend hears of payments only by asking (GET /server/payments/{orderId}). Set both to have each transition POSTed to it.',
    };
  }
  let events = '';
  const check = asCheck(
    name,
    () => {
      checkMerchantWebhookOptions(url, secret);
      events = merchantEventsFromEnv(env.MOMO_MERCHANT_EVENTS).join(', ');
    },
    '',
  );
  // The subscribed types in the message: a shop reading it knows what its handler must accept.
  return check.status === 'ok' ? { ...check, message: `${events} go to ${url} (MOMO_MERCHANT_EVENTS); check the endpoint with: momo-checkout ping` } : check;
}

function asCheck(name: string, check: () => void, okMessage: string): SetupCheck {
  try {
    check();
    return { name, status: 'ok', message: okMessage };
  } catch (error) {
    if (!(error instanceof CompanionConfigError)) throw error;
    return { name, status: 'error', message: error.message };
  }
}
