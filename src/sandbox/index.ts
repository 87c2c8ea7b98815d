/**
 * The local simulator of the payment service (payment-service.md + assumptions.md): every route,
 * envelope and quirk, test numbers with scripted outcomes, signed webhooks and a control surface.
 * No real money, no real phone.
 *
 * @example
 * const sandbox = await startSandbox({ pushDelayMs: 20 });
 * await fetch(`${sandbox.url}/v1/pay-in`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ orderId: 'o-1', amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl }),
 * });
 * await sandbox.close();
 */
import { buildSandbox } from './sandbox.js';
import type { LocalSandbox, SandboxOptions } from './types.js';

export { startSandbox } from './server.js';
export { SANDBOX_OTP } from './catalogue/catalogue.js';
export { isSandboxPath, sandboxPathPrefixes } from './paths.js';
export type {
  DeliveryResult,
  LocalSandbox,
  Fault,
  FaultKind,
  Outcome,
  ReemitHow,
  RunningSandbox,
  Sandbox,
  SandboxControl,
  SandboxOptions,
  SandboxTransaction,
  StartSandboxOptions,
  TestNumber,
  TransactionKind,
  TransactionStatus,
  Workflow,
} from './types.js';

/**
 * The sandbox without a server: call `sandbox.fetch(request)` (any origin; links use the
 * request's), and `close()` when done.
 */
export function createSandbox(options?: SandboxOptions): LocalSandbox {
  const built = buildSandbox(options);
  return Object.assign(built.sandbox, { close: built.shutdown });
}
