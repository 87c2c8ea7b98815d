/**
 * The status stream: Server-Sent Events over a plain `ReadableStream`, so it runs on every
 * runtime that speaks `Response`. One `payment` event per transition, `id:` the view's version so
 * a reconnecting page sends `Last-Event-ID` and gets only what it missed. All open streams share
 * one heartbeat interval (no timer per stream), and a stream ends after a final state.
 *
 * Each stream holds a socket and memory until it ends, so they are bounded (issue 12): a few per
 * checkout (its tabs), a total per process (beyond it the page polls the status route), and a
 * lifetime after which the page reconnects. Without these, one token opening streams in a loop
 * used every file descriptor of the process and the webhook route could no longer answer. The
 * per-checkout slots are counted where the store says (stores/limit-backend.ts): across every process on a
 * shared store; the total is this process's own (its file descriptors).
 *
 * A hub delivers at most once (stores/status-hub.ts): a view published while its connection was
 * down, or whose publish failed, is never heard. So a stream does not rely on it alone: it reads its
 * payment from the store when it opens, when the hub listens again after a loss, and every
 * {@link STREAM_RECHECK_MS} while open. A read only ever sends a version above the last one sent
 * (statuses never go back, payment-service.md §3), so a read that lost a race sends nothing.
 */
import { finalPaymentStates, type PaymentView } from '../../contract/companion.js';
import { TooManyRequests } from '../model/payer-refusal.js';
import type { StreamSlots } from '../stores/limit-backend.js';
import type { StatusHub } from '../stores/status-hub.js';
import { randomId } from '../tokens.js';

const encoder = new TextEncoder();

/**
 * How often an open stream reads its payment again, whatever the hub says. Without it a payer whose
 * completion the hub missed (PostgreSQL restarted, a NOTIFY that failed) watched the old state for
 * the stream's whole life, 5 minutes (issue 40 §3). 5 s: a missed change shows within seconds (the
 * page itself waits longer than that for a payer to approve), for one read by primary key per open
 * stream every 5 s: 2 a second for 10 payers waiting, 800 at the 4,000-stream cap.
 */
export const STREAM_RECHECK_MS = 5_000;
/** How often the due re-reads are looked for: streams opened at different times spread their reads. */
const recheckTickMs = 1_000;

export interface EventStreamLimits {
  heartbeatMs: number;
  /** Streams open at once per order (its tabs), counted in the process or across processes. */
  perOrder: StreamSlots;
  /** Streams open at once in the process. */
  total: number;
  /** A stream ends after this (checked at the heartbeat), and the page reconnects. */
  lifetimeMs: number;
}

export interface EventStreams {
  /**
   * `loadCurrent` is read after subscribing, so a transition between the two is never lost.
   * Throws a {@link TooManyRequests} when a cap is reached.
   */
  open(orderId: string, loadCurrent: () => Promise<PaymentView | null>, lastEventId: number, signal: AbortSignal): Promise<Response>;
  /** Open streams. */
  size(): number;
  close(): void;
}

export function createEventStreams(hub: StatusHub, limits: EventStreamLimits): EventStreams {
  const { heartbeatMs } = limits;
  /** Each open stream, with when it opened, how to end it and how to read its payment again. */
  const open = new Map<ReadableStreamDefaultController<Uint8Array>, { openedAt: number; finish: () => void; reread: Reread }>();
  /** Streams admitted by the total cap, waiting for their per-order slot. */
  let opening = 0;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let recheck: ReturnType<typeof setInterval> | undefined;
  const ping = encoder.encode(': ping\n\n');
  // The hub listens again after a loss: what it missed meanwhile is in the store.
  const stopRestored = hub.onRestored?.(() => {
    for (const stream of open.values()) stream.reread.now();
  });

  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      // Real time, not the companion's injectable clock: the interval itself runs on real time.
      const oldest = Date.now() - limits.lifetimeMs;
      for (const [controller, stream] of open) {
        if (stream.openedAt <= oldest) {
          stream.finish();
          continue;
        }
        try {
          controller.enqueue(ping);
        } catch {
          stream.finish();
        }
      }
    }, heartbeatMs);
    recheck = setInterval(() => {
      const due = Date.now() - STREAM_RECHECK_MS;
      for (const stream of open.values()) if (stream.reread.lastAt() <= due) stream.reread.now();
    }, recheckTickMs);
    // The heartbeat alone must not keep a process alive.
    (heartbeat as { unref?: () => void }).unref?.();
    (recheck as { unref?: () => void }).unref?.();
  };
  const stopHeartbeatIfIdle = () => {
    if (open.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      clearInterval(recheck);
      heartbeat = undefined;
      recheck = undefined;
    }
  };

  return {
    async open(orderId, loadCurrent, lastEventId, signal) {
      // The process's own cap first: it costs no round trip to a shared store.
      if (open.size + opening >= limits.total) {
        throw new TooManyRequests('RATE_LIMITED', 'Too many status streams are open on this server: read /checkout/status instead, or try the stream again later.', 5);
      }
      const streamId = randomId(12);
      opening += 1;
      let ofOrder: number;
      try {
        ofOrder = await limits.perOrder.acquire(orderId, streamId);
      } finally {
        opening -= 1;
      }
      if (ofOrder > 0) {
        throw new TooManyRequests('RATE_LIMITED', `This checkout already has ${ofOrder} status streams open: close a tab, or read /checkout/status instead.`, 5);
      }
      let unsubscribe = () => {};
      let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
      let closed = false;
      const finish = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        // Not awaited: a slot a shared store could not free now is freed by its lease.
        limits.perOrder.release(orderId, streamId).catch(() => undefined);
        if (controllerRef) {
          open.delete(controllerRef);
          try {
            controllerRef.close();
          } catch {
            // already closed by the reader
          }
        }
        stopHeartbeatIfIdle();
      };
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controllerRef = controller;
          let sent = lastEventId;
          const send = (view: PaymentView) => {
            if (closed || view.version <= sent) return;
            sent = view.version;
            controller.enqueue(encoder.encode(`id: ${view.version}\nevent: payment\ndata: ${JSON.stringify(view)}\n\n`));
            if (finalPaymentStates.includes(view.state)) queueMicrotask(finish);
          };
          const sendCurrent = (current: PaymentView | null) => {
            if (current) send(current);
            // A final payment ends the stream now, whatever Last-Event-ID the page sent (one at or
            // above the current version would otherwise keep it open for nothing, for ever).
            if (current && finalPaymentStates.includes(current.state)) queueMicrotask(finish);
          };
          // A retry hint for EventSource-like readers, then what the page has not seen yet.
          controller.enqueue(encoder.encode('retry: 2000\n\n'));
          unsubscribe = hub.subscribe(orderId, send);
          // A failed re-read is left to the next one (the store guard says an outage once).
          const reread = createReread(loadCurrent, sendCurrent, () => closed);
          open.set(controller, { openedAt: Date.now(), finish, reread });
          startHeartbeat();
          loadCurrent().then(sendCurrent, finish);
          // The page may have gone while the slot was being taken.
          if (signal.aborted) queueMicrotask(finish);
          else signal.addEventListener('abort', finish, { once: true });
        },
        cancel: finish,
      });
      return new Response(body, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          // Proxies such as nginx would otherwise buffer the stream and break the 100 ms promise.
          'x-accel-buffering': 'no',
        },
      });
    },
    size: () => open.size,
    close() {
      stopRestored?.();
      for (const stream of [...open.values()]) stream.finish();
      open.clear();
      stopHeartbeatIfIdle();
    },
  };
}

interface Reread {
  /** Reads the payment again; if a read is under way, once more after it (it may predate a restore). */
  now(): void;
  /** When the last read started (real time). */
  lastAt(): number;
}

function createReread(load: () => Promise<PaymentView | null>, sendCurrent: (current: PaymentView | null) => void, isClosed: () => boolean): Reread {
  let lastAt = Date.now();
  let reading = false;
  let again = false;
  const now = () => {
    if (isClosed()) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    lastAt = Date.now();
    load()
      .then((current) => !isClosed() && sendCurrent(current), () => undefined)
      .finally(() => {
        reading = false;
        if (!again) return;
        again = false;
        now();
      });
  };
  return { now, lastAt: () => lastAt };
}
