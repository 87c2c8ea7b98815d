/**
 * `doctor`'s checks of what `serve` adds and of who may use the checkout: the allowed origins,
 * the server secret, and the merchant notification pair. Read from the environment as `serve` reads
 * it, each problem said with its fix, all of them in one run.
 */
import { certificateAdvice, errorCode } from '../../contract/tls-failure.js';
import { CompanionConfigError } from '../config-error.js';
import { callServerApi, serverApiTarget, type ServerApiTarget } from './server-api-call.js';
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
  // Only its form is checked here: whether a running server API takes it is serverApiCheck's.
  return asCheck(name, () => checkServerSecret(secret), 'set, and strong enough.');
}

/**
 * Whether the server API answers at MOMO_SERVER_URL (or MOMO_PUBLIC_URL + /server) with the secret:
 * said as it is, never "accepts it" of a server that is not running (a warning then: doctor is also
 * run before the first start). A certificate it does not trust names NODE_EXTRA_CA_CERTS.
 */
export async function serverApiCheck(env: Env, fetchImpl: typeof fetch = fetch): Promise<SetupCheck> {
  const name = 'server API';
  // Asked only where the merchant said the running companion is: the public URL's /server is
  // closed by the proxy in front (docs/deploy.md section 4), and before the first start nothing runs.
  if (!env.MOMO_SERVER_URL?.trim()) {
    return { name, status: 'ok', message: 'not asked: set MOMO_SERVER_URL to the running companion\'s server API (e.g. http://127.0.0.1:3000/momo/server) for doctor to check that it answers and takes MOMO_SERVER_SECRET.' };
  }
  let target: ServerApiTarget;
  try {
    target = serverApiTarget(env, undefined);
  } catch (error) {
    return { name, status: 'error', message: (error as Error).message };
  }
  const answer = await callServerApi(target, '/payments?state=stale&limit=1', { method: 'GET' }, fetchImpl, 5_000);
  if (answer.ok) return { name, status: 'ok', message: `answered at ${target.base} and took MOMO_SERVER_SECRET.` };
  if (answer.status === 401) return { name, status: 'error', message: `${answer.message}: MOMO_SERVER_SECRET is not the one the running companion has; give both the same value.` };
  return { name, status: 'warning', message: `${answer.message}. Nothing is known of the secret until it answers: run doctor again once serve runs.` };
}

/**
 * `doctor --proxy`: the proxy in front, as the service (or a staging sandbox) meets it: an https
 * request to MOMO_PUBLIC_URL, trusting what this process trusts (NODE_EXTRA_CA_CERTS included, as
 * the sandbox started the same way would).
 */
export async function proxyCheck(env: Env, fetchImpl: typeof fetch = fetch): Promise<SetupCheck> {
  const name = 'proxy';
  const publicUrl = env.MOMO_PUBLIC_URL?.trim().replace(/\/+$/, '');
  if (!publicUrl?.startsWith('https://')) return { name, status: 'warning', message: 'not asked: MOMO_PUBLIC_URL is not an https address (docs/deploy.md sections 4 and 5).' };
  const extra = env.NODE_EXTRA_CA_CERTS?.trim();
  const trusted = extra ? `the public CAs and NODE_EXTRA_CA_CERTS=${extra}` : 'the public CAs only (NODE_EXTRA_CA_CERTS is not set)';
  try {
    const response = await fetchImpl(`${publicUrl}/webhook`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer().catch(() => undefined);
    return { name, status: 'ok', message: `${publicUrl} answered HTTP ${response.status} over TLS with a certificate trusted by ${trusted}.` };
  } catch (error) {
    const advice = certificateAdvice(error, 'the sender of notifications (the sandbox in staging)');
    if (advice) return { name, status: 'error', message: `${publicUrl}: ${advice}. This check trusted ${trusted}.` };
    return { name, status: 'error', message: `${publicUrl} did not answer (${errorCode(error) ?? (error as Error).message}): is the proxy running, and listening on that host and port?` };
  }
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
