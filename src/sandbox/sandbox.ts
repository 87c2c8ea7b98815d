/**
 * createSandbox: the simulator as a `(Request) => Promise<Response>` plus its control object.
 * Transport faults sit in front of the app, where a proxy or a network would fail.
 */
import { randomBytes } from 'node:crypto';
import { createApp } from './app.js';
import { SandboxCore, type TransactionRecord } from './core.js';
import { ConnectionResetError, FaultPlan, internalErrorPage } from './faults.js';
import { prefixed } from './log.js';
import { testNumbers } from './catalogue/test-numbers.js';
import type { Sandbox, SandboxControl, SandboxOptions, SandboxTransaction } from './types.js';

/** The socket a request came on, when served over HTTP (fault injection cuts it). */
export interface Connection {
  destroy(): void;
}

export interface SandboxInternals {
  sandbox: Sandbox;
  handle(request: Request, connection?: Connection): Promise<Response>;
  /** Stops timers, aborts webhook attempts, releases hung requests. */
  shutdown(): Promise<void>;
}

export const DEFAULT_PUSH_DELAY_MS = 4000;

function publicView(record: TransactionRecord): SandboxTransaction {
  const view: SandboxTransaction = {
    orderId: record.orderId,
    transactionId: record.transactionId,
    kind: record.kind,
    status: record.status,
    amount: record.amount,
    currencyCode: record.currencyCode,
    phoneNumber: record.phoneNumber,
    operatorCode: record.operatorCode,
    workflow: record.workflow,
    createdAt: record.createdAt,
  };
  if (record.webhookUrl !== undefined) view.webhookUrl = record.webhookUrl;
  return view;
}

export function buildSandbox(options: SandboxOptions = {}): SandboxInternals {
  const core = new SandboxCore({
    apiKey: options.apiKey ?? `sk_test_sandbox_${randomBytes(12).toString('hex')}`,
    webhookSecret: options.webhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`,
    pushDelayMs: options.pushDelayMs ?? DEFAULT_PUSH_DELAY_MS,
    now: options.now ?? Date.now,
    log: prefixed(options.log ?? ((line) => console.log(line))),
    ...(options.onDelivery ? { onDelivery: options.onDelivery } : {}),
  });
  const faults = new FaultPlan();
  const hung = new Set<() => void>();

  const requireRecord = (orderId: string): TransactionRecord => {
    const record = core.get(orderId);
    if (!record) throw new Error(`sandbox: no transaction with orderId ${orderId}; see control.transactions()`);
    return record;
  };

  const control: SandboxControl = {
    transactions: () => core.all().map(publicView),
    transaction: (orderId) => {
      const record = core.get(orderId);
      return record ? publicView(record) : undefined;
    },
    settle: async (orderId, status) => {
      await core.settle(requireRecord(orderId), status);
    },
    reemit: (orderId, how) => core.reemit(requireRecord(orderId), how),
    injectFault: (fault) => {
      faults.add(fault);
      core.log(`fault armed: ${fault.kind} on ${fault.path ?? 'any /v1/ path'} x${fault.times ?? 1}`);
    },
    deliveries: () => core.deliveries(),
    testNumbers: () => testNumbers.map((entry) => ({ ...entry })),
    previewCount: (phoneNumber) => core.previewCount(phoneNumber),
    balances: () => core.balances(),
    setBalance: (currencyCode, amount) => {
      core.setBalance(currencyCode, amount);
      core.log(`balance of ${currencyCode} set to ${amount}`);
    },
    reset: () => {
      core.reset();
      faults.clear();
    },
  };

  const app = createApp(core, control, options.payerUrl);

  /** Never answers: until the caller gives up (its signal) or the sandbox closes. */
  const hang = (request: Request): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const release = () => {
        hung.delete(release);
        resolve(new Response(null, { status: 503 }));
      };
      hung.add(release);
      request.signal.addEventListener('abort', () => {
        hung.delete(release);
        reject(request.signal.reason);
      });
    });

  const cut = (request: Request, connection: Connection | undefined, kind: string): Promise<Response> => {
    if (!connection) return Promise.reject(new ConnectionResetError(kind));
    connection.destroy();
    // Nothing can be written any more; the pending answer is dropped when the sandbox closes.
    return hang(request);
  };

  const handle = async (request: Request, connection?: Connection): Promise<Response> => {
    const pathname = new URL(request.url).pathname;
    const fault = faults.take(pathname);
    if (fault) core.log(`injected fault ${fault} on ${request.method} ${pathname}`);
    switch (fault) {
      case 'status-500':
        return internalErrorPage();
      case 'hang':
        return hang(request);
      case 'reset':
        return cut(request, connection, 'reset');
      case 'lost-answer': {
        // The pay-in IS created and goes on; only its answer is lost on the way back.
        const answer = await app.fetch(request);
        await answer.body?.cancel();
        return cut(request, connection, 'lost-answer');
      }
      default:
        return app.fetch(request);
    }
  };

  const sandbox: Sandbox = {
    fetch: (request) => handle(request),
    control,
    apiKey: core.apiKey,
    get webhookSecret() {
      return core.signingSecret;
    },
  };

  return {
    sandbox,
    handle,
    shutdown: async () => {
      for (const release of [...hung]) release();
      await core.close();
    },
  };
}
