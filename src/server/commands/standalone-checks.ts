/**
 * `doctor`'s checks of what `serve` adds and of who may use the checkout: the allowed origins,
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
  // No other variable says where the shop's pages are (MOMO_MERCHANT_WEBHOOK_URL is a backend
  // endpoint, often on another host or port than the pages): no origin is guessed from one.
  if (listed.length === 0) {
    return {
      name,
      status: 'warning',
      message: `MOMO_ALLOWED_ORIGINS is not set: only pages on ${publicOrigin ?? "the public URL's origin"} may use the checkout. If your shop's pages are on another origin (another port counts), set MOMO_ALLOWED_ORIGINS to it, e.g. MOMO_ALLOWED_ORIGINS=https://shop.example.`,
    };
  }
  return { name, status: 'ok', message: `pages on ${listed.join(', ')} may use the checkout.` };
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
