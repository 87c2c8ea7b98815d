/**
 * `companionOptionsFromEnv`: the companion's options read from `MOMO_*` variables (for `npm start`,
 * `momo-checkout serve` and a merchant's own server), every problem said at once.
 */
import { CompanionConfigError, type EnvironmentProblem } from './config-error.js';
import { appSchemeProblem } from './model/app-return.js';
import { heartbeatFrom } from './model/heartbeat.js';
import { isLoopbackUrl } from './model/urls.js';
import type { CompanionOptions } from './options.js';
import { maxTrustedProxies, parseTrustedEntry, type TrustProxy } from './page-routes/client-address.js';

/** What `companionOptionsFromEnv` reads: the companion's options plus where to listen. */
export type CompanionEnvConfig = Pick<CompanionOptions, 'baseUrl' | 'apiKey' | 'webhookSecrets' | 'publicUrl' | 'allowedOrigins' | 'allowInsecureLocalUrls' | 'refunds' | 'consolePassword' | 'consoleAssetsDir' | 'shopName' | 'shopLogoUrl' | 'elementAssetsDir' | 'appReturnSchemes' | 'trustProxy' | 'heartbeatMs' | 'metricsToken'> & {
  /** `PORT`, default 3000. */
  port: number;
  /** `HOST`, default `127.0.0.1` (put a TLS-terminating proxy in front: the service only posts to https). */
  host: string;
};

const required = ['MOMO_BASE_URL', 'MOMO_API_KEY', 'MOMO_WEBHOOK_SECRETS', 'MOMO_PUBLIC_URL'] as const;
const yes = new Set(['1', 'true', 'yes']);
const no = new Set(['', '0', 'false', 'no']);

/**
 * Reads `MOMO_BASE_URL`, `MOMO_API_KEY`, `MOMO_WEBHOOK_SECRETS` (comma-separated),
 * `MOMO_PUBLIC_URL`, `MOMO_ALLOWED_ORIGINS` (comma-separated; default: the public URL's origin),
 * `MOMO_ALLOW_INSECURE_LOCAL_URLS` (`1` for a local stand-in of the service on loopback http),
 * `MOMO_REFUNDS` (`on` or `off`), `MOMO_CONSOLE_PASSWORD` and `MOMO_CONSOLE_ASSETS_DIR` (the console),
 * `MOMO_TRUST_PROXY` (proxies in front: a count from 0 to 10, or their addresses and ranges),
 * `MOMO_HEARTBEAT_MS` (the status stream's heartbeat, 1000 to 50000; docs/deploy.md),
 * `MOMO_METRICS_TOKEN` (opens `<publicUrl>/metrics`, docs/metrics.md),
 * `PORT` (default 3000) and `HOST` (default 127.0.0.1).
 * Throws one `CompanionConfigError` (code `ENVIRONMENT`) naming every missing or malformed
 * variable at once, each with what to write instead (also in `error.problems`).
 *
 * @example
 * const { port, host, ...options } = companionOptionsFromEnv(process.env);
 * const momo = createCompanion(options);
 */
export function companionOptionsFromEnv(env: Record<string, string | undefined> = process.env): CompanionEnvConfig {
  const problems: EnvironmentProblem[] = [];
  const problem = (variable: string, message: string) => void problems.push({ variable, message });
  const value = (name: string) => env[name]?.trim() ?? '';
  const list = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

  const missing = required.filter((name) => !value(name));
  for (const name of missing) problem(name, `${name} is not set.`);

  const baseUrl = value('MOMO_BASE_URL');
  if (baseUrl) {
    const url = parseHttpUrl(baseUrl);
    if (!url) {
      problem('MOMO_BASE_URL', `MOMO_BASE_URL ${JSON.stringify(baseUrl)} is not an http(s) URL: set the payment service's address, e.g. https://api.example.com (or the sandbox's, e.g. http://127.0.0.1:4010).`);
    } else if (/\/v1\/?$/.test(url.pathname)) {
      problem('MOMO_BASE_URL', `MOMO_BASE_URL ends in /v1: give the service's root (${url.origin}${url.pathname.replace(/\/v1\/?$/, '')}); every call adds /v1/... itself.`);
    } else if (url.search || url.hash) {
      problem('MOMO_BASE_URL', `MOMO_BASE_URL has a query or fragment: give only the service's address, e.g. ${url.origin}.`);
    }
  }

  const insecureText = value('MOMO_ALLOW_INSECURE_LOCAL_URLS').toLowerCase();
  let allowInsecureLocalUrls = false;
  if (yes.has(insecureText)) allowInsecureLocalUrls = true;
  else if (!no.has(insecureText)) problem('MOMO_ALLOW_INSECURE_LOCAL_URLS', `MOMO_ALLOW_INSECURE_LOCAL_URLS is ${JSON.stringify(insecureText)}: set it to 1 (a local stand-in of the service) or leave it out.`);

  const publicText = value('MOMO_PUBLIC_URL');
  let origin: string | null = null;
  if (publicText) {
    const url = parseHttpUrl(publicText);
    if (!url) {
      problem('MOMO_PUBLIC_URL', `MOMO_PUBLIC_URL ${JSON.stringify(publicText)} is not an http(s) URL: set it to where the service reaches this server, e.g. https://shop.example/momo.`);
    } else {
      origin = url.origin;
      const loopback = isLoopbackUrl(url.href);
      if (allowInsecureLocalUrls && !loopback) {
        problem(
          'MOMO_ALLOW_INSECURE_LOCAL_URLS',
          `MOMO_ALLOW_INSECURE_LOCAL_URLS=1 is only for a local stand-in on this machine, but MOMO_PUBLIC_URL (${url.origin}) is not a loopback address: remove the variable.`,
        );
      } else if (url.protocol !== 'https:' && !allowInsecureLocalUrls) {
        problem(
          'MOMO_PUBLIC_URL',
          loopback
            ? `MOMO_PUBLIC_URL is http on this machine: the real service only posts notifications to https URLs on public addresses. Against a local stand-in (the sandbox), also set MOMO_ALLOW_INSECURE_LOCAL_URLS=1.`
            : `MOMO_PUBLIC_URL must be https: the service only posts notifications to https URLs on public addresses. Put the companion behind https, e.g. https://shop.example/momo.`,
        );
      }
    }
  }

  const secrets = list(value('MOMO_WEBHOOK_SECRETS'));
  if (value('MOMO_WEBHOOK_SECRETS') && secrets.length === 0) problem('MOMO_WEBHOOK_SECRETS', 'MOMO_WEBHOOK_SECRETS holds no secret: list the whsec_ secrets, separated by commas.');

  const allowed = list(value('MOMO_ALLOWED_ORIGINS'));
  for (const item of allowed) {
    const url = parseHttpUrl(item);
    if (!url || url.origin !== item.replace(/\/$/, '')) {
      problem('MOMO_ALLOWED_ORIGINS', `MOMO_ALLOWED_ORIGINS entry ${JSON.stringify(item)} is not an origin: write scheme, host and port only, e.g. https://shop.example.`);
    }
  }

  // Refunds send money out at once (§4.3): on only when the shop says so, in so many words.
  const refundsText = value('MOMO_REFUNDS').toLowerCase();
  const refunds = refundsText === 'on';
  if (refundsText !== '' && refundsText !== 'on' && refundsText !== 'off') problem('MOMO_REFUNDS', `MOMO_REFUNDS is ${JSON.stringify(refundsText)}: set it to on (refunds allowed) or off, or leave it out (off).`);

  const consolePassword = value('MOMO_CONSOLE_PASSWORD');
  if (consolePassword && consolePassword.length < 16) problem('MOMO_CONSOLE_PASSWORD', 'MOMO_CONSOLE_PASSWORD is shorter than 16 characters: generate one with openssl rand -base64 18.');
  const consoleAssetsDir = value('MOMO_CONSOLE_ASSETS_DIR');
  // Payment links' pages (docs/merchant-guide.md, "Payment links").
  const shopName = value('MOMO_SHOP_NAME');
  const shopLogoUrl = value('MOMO_SHOP_LOGO_URL');
  if (shopLogoUrl && !/^https:\/\/[^\s]+$/.test(shopLogoUrl)) problem('MOMO_SHOP_LOGO_URL', `MOMO_SHOP_LOGO_URL ${JSON.stringify(shopLogoUrl)} is not an https URL: give the address of your logo, e.g. https://shop.example/logo.png.`);
  const elementAssetsDir = value('MOMO_ELEMENT_ASSETS_DIR');
  // The mobile apps' return schemes (docs/mobile-apps.md): comma-separated, e.g. shopapp,com.shop.app.
  const appReturnSchemes = value('MOMO_APP_RETURN_SCHEMES').split(',').map((scheme) => scheme.trim()).filter(Boolean);
  for (const scheme of appReturnSchemes) {
    const schemeProblem = appSchemeProblem(scheme);
    if (schemeProblem) problem('MOMO_APP_RETURN_SCHEMES', `MOMO_APP_RETURN_SCHEMES: ${schemeProblem}.`);
  }
  const metricsToken = value('MOMO_METRICS_TOKEN');
  if (metricsToken && metricsToken.length < 32) problem('MOMO_METRICS_TOKEN', 'MOMO_METRICS_TOKEN is shorter than 32 characters: generate one with openssl rand -hex 32.');
  else if (/\s/.test(metricsToken)) problem('MOMO_METRICS_TOKEN', 'MOMO_METRICS_TOKEN contains whitespace, which no Authorization: Bearer header can carry (a scrape could never match it): generate one with openssl rand -hex 32.');
  if (/\s/.test(value('MOMO_API_KEY'))) problem('MOMO_API_KEY', 'MOMO_API_KEY contains whitespace, which the service never accepts in Authorization: Bearer: copy the key again, as one word.');
  const trustProxy = trustProxyFrom(value('MOMO_TRUST_PROXY'), (message) => problem('MOMO_TRUST_PROXY', message));
  const heartbeatMs = heartbeatFrom(value('MOMO_HEARTBEAT_MS'), (message) => problem('MOMO_HEARTBEAT_MS', message));

  const portText = value('PORT') || '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problem('PORT', `PORT ${JSON.stringify(env.PORT)} is not a port number: set PORT to e.g. 3000.`);

  if (problems.length > 0) {
    const malformed = problems.filter((entry) => !missing.includes(entry.variable as (typeof required)[number]));
    const lines = [...(missing.length > 0 ? [`Set ${missing.join(', ')} in the environment.`] : []), ...malformed.map((entry) => entry.message)];
    throw new CompanionConfigError(
      `Fix the environment (docs/merchant-guide.md, "Configuration from the environment"):\n${lines.map((line) => `  - ${line}`).join('\n')}`,
      'ENVIRONMENT',
      problems,
    );
  }
  return {
    baseUrl,
    apiKey: value('MOMO_API_KEY'),
    webhookSecrets: secrets,
    publicUrl: publicText,
    allowedOrigins: allowed.length > 0 ? allowed.map((item) => item.replace(/\/$/, '')) : [origin!],
    ...(allowInsecureLocalUrls ? { allowInsecureLocalUrls: true } : {}),
    ...(refunds ? { refunds: true } : {}),
    ...(consolePassword ? { consolePassword } : {}),
    ...(consoleAssetsDir ? { consoleAssetsDir } : {}),
    ...(shopName ? { shopName } : {}),
    ...(shopLogoUrl ? { shopLogoUrl } : {}),
    ...(elementAssetsDir ? { elementAssetsDir } : {}),
    ...(appReturnSchemes.length > 0 ? { appReturnSchemes } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
    ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    ...(metricsToken ? { metricsToken } : {}),
    port,
    host: value('HOST') || '127.0.0.1',
  };
}

/**
 * `MOMO_TRUST_PROXY`: how many proxies of yours are in front (`1`), or their addresses and ranges
 * (`127.0.0.1,10.0.0.0/8`), as the `trustProxy` option (page-routes/client-address.ts).
 */
function trustProxyFrom(text: string, problem: (message: string) => void): TrustProxy | undefined {
  if (text === '') return undefined;
  const what = `set the number of proxies in front (0 to ${maxTrustedProxies}, e.g. 1), or their addresses and ranges separated by commas (e.g. 127.0.0.1,10.0.0.0/8)`;
  if (/^\d+$/.test(text)) {
    if (Number(text) <= maxTrustedProxies) return Number(text);
    problem(`MOMO_TRUST_PROXY is ${text}, more proxies than any real chain (a CDN, a load balancer, an ingress): ${what}.`);
    return undefined;
  }
  const entries = text.split(',').map((item) => item.trim()).filter(Boolean);
  for (const entry of entries) {
    try {
      parseTrustedEntry(entry);
    } catch {
      problem(`MOMO_TRUST_PROXY entry ${JSON.stringify(entry)} is neither an IP address nor a range (an IPv4 address has four decimal parts, e.g. 10.0.0.1): ${what}.`);
      return undefined;
    }
  }
  return entries;
}

function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
