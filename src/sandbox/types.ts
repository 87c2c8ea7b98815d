/**
 * The sandbox's public types: the shape other engineers (demo, stories, e2e, companion tests) code
 * against. Kept apart from the implementation so reading the API needs one short file.
 */

export type Workflow = 'provider_auth' | 'pre_authorized' | 'redirect_url';
export type TransactionKind = 'payin' | 'payout';
/** `pending` until settled; statuses are monotone: a final one never changes. */
export type TransactionStatus = 'pending' | 'completed' | 'failed';
export type Outcome = 'approve' | 'decline' | 'no-answer';

export interface SandboxOptions {
  /** Default: a random `sk_test_sandbox_...` key. */
  apiKey?: string;
  /** Default: a random `whsec_...` secret. */
  webhookSecret?: string;
  /** Delay before a `provider_auth` push (or a pay-out) is settled. Default 4000; tests pass ~20. */
  pushDelayMs?: number;
  /** Clock for `createdAt` and the webhooks' `_timestamp`. Default `Date.now`. */
  now?: () => number;
  /** Default `console.log`. Lines never carry secrets, OTPs or full phone numbers. */
  log?: (line: string) => void;
  /**
   * Where a payer's browser reaches the sandbox's logos and approval page (`<payerUrl>/logos/...`,
   * `<payerUrl>/authorize/...`), e.g. the companion's public URL behind a TLS proxy. Default: the
   * origin of each request, which is the sandbox's own address.
   */
  payerUrl?: string;
  /** Told of every notification delivery attempt, delivered or lost. */
  onDelivery?: (result: DeliveryResult) => void;
}

export interface SandboxTransaction {
  orderId: string;
  transactionId: string;
  kind: TransactionKind;
  status: TransactionStatus;
  /** Canonical decimal string in the major unit, e.g. `5000`, `12.5`. */
  amount: string;
  currencyCode: string;
  phoneNumber: string;
  operatorCode: string;
  workflow: Workflow;
  webhookUrl?: string;
  /** Milliseconds since the epoch (the sandbox's clock). */
  createdAt: number;
}

export interface DeliveryResult {
  orderId: string;
  /** The `status` the notification carried. */
  status: string;
  url: string;
  /** The receiver's HTTP status, when it answered. */
  httpStatus?: number;
  /** Why the notification is lost (non-2xx, redirect, timeout, network error). */
  error?: string;
  /** `true` when the receiver answered 2xx. */
  ok: boolean;
  /** The exact body text sent. */
  body: string;
  /** When the attempt started (the sandbox's clock, ms). */
  at: number;
  /**
   * When it ended: the answer, the failure or the timeout. A notification that waited in a
   * receiver's listening queue (a restart behind a held socket) ends long after it started.
   */
  endedAt: number;
}

export interface TestNumber {
  phoneNumber: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  operatorCode: string;
  workflow: Workflow;
  outcome: Outcome;
  note: string;
}

export type FaultKind = 'status-500' | 'hang' | 'reset' | 'lost-answer';

export interface Fault {
  kind: FaultKind;
  /** Only requests to this path (e.g. `/v1/pay-in`). Default: any `/v1/` path. */
  path?: string;
  /** How many requests it hits. Default 1. */
  times?: number;
}

export type ReemitHow = 'duplicate' | 'stale' | 'forged' | 'out-of-order';

export interface SandboxControl {
  transactions(): SandboxTransaction[];
  transaction(orderId: string): SandboxTransaction | undefined;
  /** Settles a pending payment now and emits its webhook (resolves once the attempt is over). */
  settle(orderId: string, status: 'completed' | 'failed'): Promise<void>;
  /**
   * duplicate: the last notification again, byte-identical; stale: re-signed with a `_timestamp`
   * one hour old; forged: signed with a wrong secret; out-of-order: an earlier (pending)
   * notification re-sent after the final one.
   */
  reemit(orderId: string, how: ReemitHow): Promise<DeliveryResult>;
  /**
   * status-500: answer 500 with an HTML body, nothing created; hang: never answer (until close or
   * the request's signal aborts); reset: cut the connection, nothing created; lost-answer: create
   * the pay-in (and go on processing it) but then cut the connection.
   */
  injectFault(fault: Fault): void;
  deliveries(): DeliveryResult[];
  testNumbers(): TestNumber[];
  /** How many fee previews were asked (each may assign the number durably), optionally for one number. */
  previewCount(phoneNumber?: string): number;
  /** Balance per currency (major unit, canonical decimal string). */
  balances(): Record<string, string>;
  /**
   * Sets a currency's balance (major unit, decimal string): a pay-out above it fails at once with
   * `INSUFFICIENT_FUNDS`, as the service does (a synchronous pay-out failure). Throws on an amount that is not a plain decimal
   * with at most the currency's decimals.
   */
  setBalance(currencyCode: string, amount: string): void;
  /** Forgets transactions, deliveries, faults, previews and balances; keeps the key and secrets. */
  reset(): void;
}

export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  control: SandboxControl;
  apiKey: string;
  /** The secret that signs notifications: the newest active one. */
  readonly webhookSecret: string;
}

/** A sandbox without a server (`createSandbox`): `close()` stops its timers and pending webhooks. */
export interface LocalSandbox extends Sandbox {
  close(): Promise<void>;
}

export interface RunningSandbox extends Sandbox {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

export interface StartSandboxOptions extends SandboxOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** A request (headers and body) must arrive within this. Default 15 s (Node's own is 300 s). */
  requestTimeoutMs?: number;
  /** Default `127.0.0.1`. */
  host?: string;
}
