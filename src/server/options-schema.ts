/**
 * `createCompanion`'s options checked at run time: a plain-JavaScript caller (or a TypeScript one
 * reading JSON or an untyped config) gets a CompanionConfigError at creation naming the option and
 * what to pass, never a TypeError at a payer's first request (issue 20 §6: a missing
 * `allowedOrigins` broke only the pay route).
 *
 * Only the shapes are checked here; what needs more than a shape (an https publicUrl, a mount
 * path, a server secret's length) is checked where it is used, with its own message.
 */
import { z } from 'zod';
import { CompanionConfigError } from './config-error.js';
import type { CompanionOptions } from './options.js';
import { maxTrustedProxies, parseTrustedEntry } from './page-routes/client-address.js';
import { appSchemeProblem } from './model/app-return.js';

const text = z.string().trim().min(1);
const count = z.number().int().min(0);
const positive = z.number().positive();
const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function');
const isOrigin = (value: string) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
};
// A burst under 1 refuses every call for good: no limit means that (issue 40, finding 9).
const rate = z.object({ burst: z.number().int().min(1), perMinute: positive });

// Every option has its line (the `satisfies` fails the build when an option is added without one).
const shape = {
  baseUrl: text,
  apiKey: text.refine((key) => !/\s/.test(key), 'the service never accepts a key with whitespace'),
  webhookSecrets: z.array(z.string()),
  publicUrl: text,
  mountPath: z.string().optional(),
  allowedOrigins: z.array(z.string().refine(isOrigin)),
  returnUrl: z.string().optional(),
  onPaymentUpdate: fn.optional(),
  onRefundUpdate: fn.optional(),
  refunds: z.boolean().optional(),
  onStale: fn.optional(),
  deliveryTimeoutMs: positive.optional(),
  deliveryRetryDelaysMs: z.array(count).min(1).optional(),
  staleAfterMinutes: count.optional(),
  maintenanceIntervalMs: positive.optional(),
  closeTimeoutMs: count.optional(),
  store: z.object({ getByOrderId: fn, createIfAbsent: fn, compareAndSet: fn, ping: fn }).loose().optional(),
  dataDir: z.string().optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  checkoutTtlMs: positive.optional(),
  discoveryCacheTtlMs: count.optional(),
  maxAttempts: z.number().int().min(1).optional(),
  heartbeatMs: positive.optional(),
  serviceTimeoutMs: positive.optional(),
  storeTimeoutMs: positive.optional(),
  webhookToleranceMs: positive.optional(),
  allowInsecureLocalUrls: z.boolean().optional(),
  setupChecksAtStart: z.boolean().optional(),
  setupRecheckMs: count.optional(),
  log: z.object({ debug: fn, info: fn, warn: fn, error: fn }).loose().optional(),
  now: fn.optional(),
  fetch: fn.optional(),
  limits: z
    .object({
      streamsPerCheckout: count.optional(),
      streams: count.optional(),
      streamLifetimeMs: positive.optional(),
      numbersPerCheckout: count.optional(),
      perCheckout: rate.optional(),
      perAddress: rate.optional(),
    })
    .optional(),
  clientAddress: fn.optional(),
  trustProxy: z
    .union([count.max(maxTrustedProxies, `a count of proxies is at most ${maxTrustedProxies}`), z.array(z.string().refine(isTrustedEntry, 'each entry must be an IP address or a range such as 10.0.0.0/8'))])
    .optional(),
  allowIdnAuthorizationUrls: z.boolean().optional(),
  serverSecret: z.string().optional(),
  merchantWebhookUrl: z.string().optional(),
  merchantWebhookSecret: z.string().optional(),
  merchantEvents: z.array(z.string()).optional(),
  consolePassword: z.string().min(16, 'consolePassword must be at least 16 characters: generate one with openssl rand -base64 18').optional(),
  consoleSessionTtlMs: positive.optional(),
  consoleAssetsDir: z.string().optional(),
  shopName: z.string().min(1).max(100).optional(),
  shopLogoUrl: z.string().url().startsWith('https://').optional(),
  elementAssetsDir: z.string().optional(),
  appReturnSchemes: z.array(z.string().superRefine((scheme, context) => {
    const problem = appSchemeProblem(scheme);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })).optional(),
  metricsStoreGaugesEveryMs: count.optional(),
  metricsToken: z.string().min(32, 'metricsToken must be at least 32 characters: generate one with openssl rand -hex 32').regex(/^\S+$/, 'metricsToken must have no whitespace: generate one with openssl rand -hex 32').optional(),
} satisfies Record<keyof CompanionOptions, z.ZodType>;

// Options of a newer or older version are not refused: the shape of the known ones is what matters.
const schema = z.object(shape).loose();

/** What to pass, for the options whose name alone does not say it. */
const expected: Partial<Record<keyof CompanionOptions, string>> = {
  baseUrl: "the payment service's address, e.g. baseUrl: 'https://api.example.com' (or the sandbox's URL)",
  webhookSecrets: "the list of whsec_ secrets that sign notifications, e.g. webhookSecrets: ['whsec_...']",
  publicUrl: "where the service and browsers reach this companion, e.g. publicUrl: 'https://shop.example/momo'",
  allowedOrigins: "the origins (scheme, host and port, no path) of the pages that show the checkout, e.g. allowedOrigins: ['https://shop.example']",
  store: 'a store such as createFileStore(), await createRedisStore({ url }) or createMemoryStore(), or leave it out for the file store',
  log: 'an object with debug, info, warn and error functions, or leave it out',
  limits: 'e.g. limits: { perCheckout: { burst: 20, perMinute: 20 } } (a burst of at least 1: a burst of 0 would refuse every call)',
  deliveryRetryDelaysMs: 'a non-empty list of milliseconds, e.g. [1000, 5000, 30000]',
  trustProxy: `how many proxies of yours are in front (0 to ${maxTrustedProxies}), or their addresses and ranges, e.g. trustProxy: ['127.0.0.1', '10.0.0.0/8']`,
  appReturnSchemes: "your apps' own URL schemes, in lower case without ':', e.g. appReturnSchemes: ['shopapp']",
  apiKey: 'the organisation API key as one word (no spaces or line breaks), e.g. apiKey: process.env.MOMO_API_KEY',
};

/** Throws a CompanionConfigError (code INVALID_OPTION) for the first missing or malformed option. */
export function checkCompanionOptions(options: unknown): asserts options is CompanionOptions {
  if (typeof options !== 'object' || options === null) {
    throw new CompanionConfigError('createCompanion needs an options object, e.g. createCompanion({ baseUrl, apiKey, webhookSecrets, publicUrl, allowedOrigins }).');
  }
  const parsed = schema.safeParse(options);
  if (parsed.success) return;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0]) as keyof CompanionOptions;
  const value = (options as Record<string, unknown>)[name];
  const what = expected[name] ?? `a value of the documented type (${issue.message.toLowerCase()})`;
  const where = issue.path.length > 1 ? ` (at ${issue.path.map(String).join('.')})` : '';
  const problem = value === undefined ? 'is missing' : `is malformed${where}: got ${describe(value)}`;
  throw new CompanionConfigError(`createCompanion: option ${name} ${problem}. Pass ${what}.`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `a list ${JSON.stringify(value).slice(0, 80)}`;
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 80));
  if (typeof value === 'function') return 'a function';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function isTrustedEntry(entry: string): boolean {
  try {
    parseTrustedEntry(entry);
    return true;
  } catch {
    return false;
  }
}
