/**
 * The sandbox's state and behaviour behind the HTTP routes: transactions, balances, webhook
 * secrets, notifications and their deliveries, timers. Routes validate; this module acts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fromMinorUnits, toMinorUnits } from '../contract/money.js';
import { signWebhook } from '../contract/webhook-signature/index.js';
import { currencies, startingBalances, type OperatorDef } from './catalogue/catalogue.js';
import { whyTheServiceWouldDrop } from './emission-policy.js';
import { redactPhone, type Logger } from './log.js';
import type { DeliveryResult, Outcome, ReemitHow, SandboxTransaction, TransactionKind, Workflow } from './types.js';
import { deliverOnce } from './webhook-delivery.js';

export interface TransactionRecord extends SandboxTransaction {
  /** The amount's digits as the request wrote them: the webhook writes them back (§6.3.5). */
  rawAmount: string;
  outcome: Outcome;
  redirectUrls?: { success: string; failure: string };
  authorizationUrl?: string;
  /** Credited to the balance on completion (§2.1 Fees: amount minus fees). */
  creditMinor: bigint;
  failureCategory?: string;
  failureReason?: string;
  /** Bodies sent (or that would have been sent), in order. */
  notifications: string[];
}

export interface NewTransaction {
  kind: TransactionKind;
  orderId: string;
  amount: string;
  rawAmount: string;
  currencyCode: string;
  phoneNumber: string;
  operator: OperatorDef;
  workflow: Workflow;
  outcome: Outcome;
  webhookUrl?: string;
  redirectUrls?: { success: string; failure: string };
  creditMinor: bigint;
}

export interface CoreOptions {
  apiKey: string;
  webhookSecret: string;
  pushDelayMs: number;
  now: () => number;
  log: Logger;
  /** Told of every delivery attempt (serve --sandbox logs a lost one in the companion's log). */
  onDelivery?: (result: DeliveryResult) => void;
}

export class SandboxCore {
  readonly apiKey: string;
  readonly pushDelayMs: number;
  readonly now: () => number;
  readonly log: Logger;
  private readonly onDelivery: CoreOptions['onDelivery'];
  private readonly secrets: string[];
  private readonly records = new Map<string, TransactionRecord>();
  private readonly byTransactionId = new Map<string, TransactionRecord>();
  private readonly balanceMinor = new Map<string, bigint>();
  private readonly deliveryLog: DeliveryResult[] = [];
  private readonly previews: string[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly warnedUrls = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = new AbortController();

  constructor(options: CoreOptions) {
    this.apiKey = options.apiKey;
    this.secrets = [options.webhookSecret];
    this.pushDelayMs = options.pushDelayMs;
    this.now = options.now;
    this.log = options.log;
    this.onDelivery = options.onDelivery;
    this.resetBalances();
  }

  /** §5.7: the sandbox has one user, so the newest active secret signs. */
  get signingSecret(): string {
    return this.secrets[this.secrets.length - 1]!;
  }

  /** §4.7: a new secret, returned once; earlier ones stay active (§5.6). */
  createWebhookSecret(): string {
    const secret = `whsec_${randomBytes(24).toString('hex')}`;
    this.secrets.push(secret);
    this.log('created a webhook secret; it now signs notifications');
    return secret;
  }

  get(orderId: string): TransactionRecord | undefined {
    return this.records.get(orderId);
  }

  getByTransactionId(transactionId: string): TransactionRecord | undefined {
    return this.byTransactionId.get(transactionId);
  }

  all(): TransactionRecord[] {
    return [...this.records.values()];
  }

  deliveries(): DeliveryResult[] {
    return [...this.deliveryLog];
  }

  recordPreview(phoneNumber: string): void {
    this.previews.push(phoneNumber);
  }

  previewCount(phoneNumber?: string): number {
    return phoneNumber === undefined ? this.previews.length : this.previews.filter((entry) => entry === phoneNumber).length;
  }

  balance(currencyCode: string): bigint {
    return this.balanceMinor.get(currencyCode) ?? 0n;
  }

  balances(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [code, minor] of this.balanceMinor) out[code] = fromMinorUnits(minor, decimalsOf(code));
    return out;
  }

  setBalance(currencyCode: string, amount: string): void {
    this.balanceMinor.set(currencyCode, toMinorUnits(amount, decimalsOf(currencyCode)));
  }

  adjustBalance(currencyCode: string, deltaMinor: bigint): bigint {
    const next = this.balance(currencyCode) + deltaMinor;
    this.balanceMinor.set(currencyCode, next);
    return next;
  }

  create(input: NewTransaction): TransactionRecord {
    const record: TransactionRecord = {
      orderId: input.orderId,
      transactionId: randomUUID(),
      kind: input.kind,
      status: 'pending',
      amount: input.amount,
      rawAmount: input.rawAmount,
      currencyCode: input.currencyCode,
      phoneNumber: input.phoneNumber,
      operatorCode: input.operator.code,
      workflow: input.workflow,
      createdAt: this.now(),
      outcome: input.outcome,
      creditMinor: input.creditMinor,
      notifications: [],
    };
    if (input.webhookUrl !== undefined) record.webhookUrl = input.webhookUrl;
    if (input.redirectUrls !== undefined) record.redirectUrls = input.redirectUrls;
    this.records.set(record.orderId, record);
    this.byTransactionId.set(record.transactionId, record);
    this.log(
      `${record.kind} ${record.orderId} created: ${record.amount} ${record.currencyCode} from ${redactPhone(record.phoneNumber)} via ${record.operatorCode} (${record.workflow})`,
    );
    if (record.webhookUrl === undefined) {
      // §6.1.2: no webhookUrl, no notification ever; say so, the integrator will wonder.
      this.log(`${record.kind} ${record.orderId} has no webhookUrl: it will never notify (the service notifies only the webhookUrl given on each transaction)`);
    }
    return record;
  }

  /** Runs `task` after `ms` unless the sandbox is reset or closed first. */
  schedule(ms: number, task: () => Promise<unknown> | void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(Promise.resolve().then(task)).catch((error: unknown) => this.log(`scheduled task failed: ${String(error)}`));
    }, ms);
    // Timers must not keep a test process alive; a running server keeps the CLI alive anyway.
    timer.unref();
    this.timers.add(timer);
  }

  /** Applies the outcome (once: §3 statuses are monotone) and emits the final notification. */
  async settle(record: TransactionRecord, status: 'completed' | 'failed'): Promise<DeliveryResult | undefined> {
    if (record.status !== 'pending') {
      throw new Error(`sandbox: ${record.orderId} is already ${record.status}; a final status never changes`);
    }
    record.status = status;
    if (record.kind === 'payin' && status === 'completed') this.adjustBalance(record.currencyCode, record.creditMinor);
    // A failed pay-out gives its money back.
    if (record.kind === 'payout' && status === 'failed') {
      this.adjustBalance(record.currencyCode, toMinorUnits(record.amount, decimalsOf(record.currencyCode)));
    }
    this.log(`${record.kind} ${record.orderId} ${status}`);
    return this.notify(record);
  }

  /** Builds, signs and sends the notification for the record's current state (§6.2). */
  async notify(record: TransactionRecord, extra: { authorizationUrl?: string } = {}): Promise<DeliveryResult | undefined> {
    const body = await this.sign(record, record.status, extra, { secret: this.signingSecret });
    record.notifications.push(body);
    return this.send(record, record.status, body);
  }

  async sign(
    record: TransactionRecord,
    status: string,
    extra: { authorizationUrl?: string },
    how: { secret: string; timestamp?: number },
  ): Promise<string> {
    // assumptions.md §Webhook: this key order; the amount's digits as written in the request.
    const fields: Array<readonly [string, unknown]> = [
      ['phoneNumber', record.phoneNumber],
      ['amount', { rawNumber: record.rawAmount }],
      ['orderId', record.orderId],
      ['status', status],
    ];
    if (extra.authorizationUrl !== undefined) fields.push(['nextAction', { authorizationUrl: extra.authorizationUrl }]);
    // §6.2: failureCategory/Reason only on a synchronous pay-out failure.
    if (record.failureCategory !== undefined) fields.push(['failureCategory', record.failureCategory]);
    if (record.failureReason !== undefined) fields.push(['failureReason', record.failureReason]);
    if (how.timestamp !== undefined) fields.push(['_nonce', randomBytes(16).toString('hex')], ['_timestamp', how.timestamp]);
    return signWebhook(fields, how.secret, { now: this.now });
  }

  async send(record: TransactionRecord, status: string, body: string): Promise<DeliveryResult | undefined> {
    const url = record.webhookUrl;
    if (url === undefined) return undefined;
    const drop = whyTheServiceWouldDrop(url);
    if (drop !== undefined && !this.warnedUrls.has(url)) {
      this.warnedUrls.add(url);
      this.log(`webhook URL ${safeUrl(url)}: the real service would drop it (${drop}: it posts only to https on public addresses); the local sandbox delivers anyway`);
    }
    const attempt = deliverOnce({ orderId: record.orderId, status, url, body, at: this.now(), now: this.now, signal: this.closing.signal });
    const result = await this.track(attempt);
    this.deliveryLog.push(result);
    // A lost notification leaves a payer waiting: said loudly, with where it went (issue 41).
    this.log(
      result.ok
        ? `webhook ${record.orderId} ${status} delivered (${result.httpStatus})`
        : `NOT DELIVERED: webhook ${record.orderId} ${status} to ${safeUrl(url)}: ${result.error}`,
    );
    this.onDelivery?.(result);
    return result;
  }

  /** control.reemit: what support's re-emission, a replay or a forger would send (§6.2, §6.4). */
  async reemit(record: TransactionRecord, how: ReemitHow): Promise<DeliveryResult> {
    if (record.webhookUrl === undefined) {
      throw new Error(`sandbox: ${record.orderId} has no webhookUrl, so there is nothing to re-emit`);
    }
    const last = record.notifications[record.notifications.length - 1];
    let body: string;
    let status = record.status as string;
    switch (how) {
      case 'duplicate':
        if (last === undefined) throw new Error(`sandbox: ${record.orderId} has sent no notification yet; settle it first`);
        body = last;
        break;
      case 'stale':
        body = await this.sign(record, record.status, {}, { secret: this.signingSecret, timestamp: this.now() - 3_600_000 });
        break;
      case 'forged':
        body = await this.sign(record, record.status, {}, { secret: `whsec_forged_${randomBytes(8).toString('hex')}` });
        break;
      case 'out-of-order': {
        if (record.status === 'pending') {
          throw new Error(`sandbox: ${record.orderId} is still pending; out-of-order re-sends an earlier notification after the final one, settle it first`);
        }
        // The earlier pending notification (redirect flows have one) byte-identical, else a pending one signed now.
        const earlier = record.notifications.length > 1 ? record.notifications[0] : undefined;
        body = earlier ?? (await this.sign(record, 'pending', {}, { secret: this.signingSecret }));
        status = 'pending';
        break;
      }
    }
    this.log(`re-emitting ${record.orderId} (${how})`);
    const result = await this.send(record, status, body);
    return result!;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    const forget = () => this.inFlight.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  reset(): void {
    this.clearTimers();
    this.records.clear();
    this.byTransactionId.clear();
    this.deliveryLog.length = 0;
    this.previews.length = 0;
    this.warnedUrls.clear();
    this.resetBalances();
  }

  /** Stops timers and aborts webhook attempts in flight; waits for them to finish. */
  async close(): Promise<void> {
    this.clearTimers();
    this.closing.abort();
    await Promise.allSettled([...this.inFlight]);
    this.closing = new AbortController();
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private resetBalances(): void {
    this.balanceMinor.clear();
    for (const [code, amount] of Object.entries(startingBalances)) {
      this.balanceMinor.set(code, toMinorUnits(amount, decimalsOf(code)));
    }
  }
}

export function decimalsOf(currencyCode: string): number {
  return currencies[currencyCode]?.decimalPlaces ?? 0;
}

/** A URL for a log line: scheme, host and path only (a query could carry a token). */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
