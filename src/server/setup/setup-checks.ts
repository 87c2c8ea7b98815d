/**
 * Part `setup/` (docs/architecture.md): the setup checks (the service answers the key, secrets,
 * public URL) and their report. May import model/, service-client/ and the foundation.
 *
 * Setup checks, run at start and by `npx momo-checkout doctor`. Each misconfiguration they catch
 * fails silently on the real service (service doc §6.1: no notification ever arrives; §6.4: a
 * private or http webhook URL is dropped at emission), so they are said loudly, with the fix.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { createServiceClient, UnauthorizedError } from '../service-client/index.js';
import { isLoopbackUrl } from '../model/urls.js';

export interface SetupCheck {
  name: string;
  status: 'ok' | 'warning' | 'error';
  message: string;
}

export interface SetupCheckOptions {
  baseUrl: string;
  apiKey: string;
  webhookSecrets: readonly string[];
  publicUrl: string;
  /** Name resolution; default node:dns. Tests inject one. */
  resolveHost?: (host: string) => Promise<string[]>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /**
   * A local stand-in of the service only (`MOMO_ALLOW_INSECURE_LOCAL_URLS=1`): a loopback http
   * publicUrl is a warning instead of an error (the real service would drop every notification to
   * it: it posts only to https on public addresses).
   */
  allowLocalPublicUrl?: boolean;
}

export async function runSetupChecks(options: SetupCheckOptions): Promise<SetupCheck[]> {
  const checks: SetupCheck[] = [];
  checks.push(await checkService(options));
  checks.push(checkSecrets(options.webhookSecrets));
  const publicUrlCheck = await checkPublicUrl(options.publicUrl, options.resolveHost ?? resolveWithDns);
  if (publicUrlCheck.status === 'error' && options.allowLocalPublicUrl && isLoopbackUrl(options.publicUrl)) {
    publicUrlCheck.status = 'warning';
    publicUrlCheck.message = `${options.publicUrl} is a local URL: fine against a local stand-in such as the sandbox, but the real service drops every notification to it (it posts only to https URLs on public addresses).`;
  } else if (publicUrlCheck.status === 'error' && isLoopbackUrl(options.baseUrl) && options.publicUrl.startsWith('https:')) {
    // The real service is never on this machine: a service on loopback is a stand-in (the sandbox
    // on a staging host, docs/deploy.md section 7), which delivers to any address it can reach.
    publicUrlCheck.status = 'warning';
    publicUrlCheck.message = `${publicUrlCheck.message} (Fine against the sandbox on this machine, MOMO_BASE_URL ${options.baseUrl}, which delivers there; not against the real service.)`;
  }
  checks.push(publicUrlCheck);
  // A key for a service on this machine is a stand-in's own key (the sandbox's), not a live one.
  if (options.apiKey.startsWith('sk_test_') && !isLoopbackUrl(options.baseUrl)) {
    checks.push({
      name: 'API key mode',
      status: 'warning',
      message:
        'sk_test_ keys are live: the service reads no test mode from the key, so every pay-in is a real prompt on a real phone. Test against the local sandbox (npx momo-checkout sandbox), not with this key.',
    });
  }
  return checks;
}

async function checkService(options: SetupCheckOptions): Promise<SetupCheck> {
  const name = 'payment service';
  try {
    const service = createServiceClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: { attempts: 0 },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    // An authenticated read-only discovery call (§1.5: safe to call).
    const { operators } = await service.operators();
    return { name, status: 'ok', message: `${options.baseUrl} answers with this API key (${operators.length} operators).` };
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      return { name, status: 'error', message: `${options.baseUrl} refuses this API key (401). Set MOMO_API_KEY to an organisation API key from the dashboard.` };
    }
    return { name, status: 'error', message: `${options.baseUrl} cannot be used: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function checkSecrets(secrets: readonly string[]): SetupCheck {
  const name = 'webhook secrets';
  if (secrets.length === 0) {
    return { name, status: 'error', message: "No webhook secret: every notification will be refused. Create one (it must belong to the user whose API key creates the payments: a colleague's secret does not sign them) and set MOMO_WEBHOOK_SECRETS." };
  }
  const odd = secrets.filter((secret) => !secret.startsWith('whsec_'));
  if (odd.length > 0) return { name, status: 'error', message: `${odd.length} webhook secret(s) do not start with whsec_: is an API key in MOMO_WEBHOOK_SECRETS?` };
  return { name, status: 'ok', message: `${secrets.length} webhook secret(s) configured (one must belong to the user whose API key creates the payments: a colleague's secret does not sign them).` };
}

export async function checkPublicUrl(publicUrl: string, resolveHost: (host: string) => Promise<string[]>): Promise<SetupCheck> {
  const name = 'public URL';
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return { name, status: 'error', message: `MOMO_PUBLIC_URL ${JSON.stringify(publicUrl)} is not a URL.` };
  }
  if (url.protocol !== 'https:') {
    return { name, status: 'error', message: `${publicUrl} is not https: the service drops every notification to it (it posts only to https URLs on public addresses). Put the companion behind https; against a local stand-in such as the sandbox, set MOMO_ALLOW_INSECURE_LOCAL_URLS=1.` };
  }
  let addresses: string[];
  try {
    addresses = await resolveHost(url.hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return { name, status: 'error', message: `${url.hostname} does not resolve: the service cannot deliver notifications to it.` };
  }
  const notPublic = addresses.filter((address) => !isPublicUnicast(address));
  if (addresses.length === 0 || notPublic.length > 0) {
    return {
      name,
      status: 'error',
      message: `${url.hostname} resolves to ${notPublic.join(', ') || 'nothing'}, not a public unicast address: the service refuses private, loopback and link-local targets and drops every notification. Use a public host name (or a tunnel) for MOMO_PUBLIC_URL.`,
    };
  }
  return { name, status: 'ok', message: `${publicUrl} is https and resolves to public addresses (${addresses.join(', ')}).` };
}

/** ipaddr.js knows the special ranges, including IPv4 disguised as IPv6 (`::ffff:10.0.0.1`). */
export function isPublicUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

async function resolveWithDns(host: string): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}
