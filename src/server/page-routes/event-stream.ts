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
 */
import { finalPaymentStates, type PaymentView } from '../../contract/companion.js';
import { TooManyRequests } from '../model/payer-refusal.js';
import type { StreamSlots } from '../stores/limit-backend.js';
import type { StatusHub } from '../stores/status-hub.js';
import { randomId } from '../tokens.js';

const encoder = new TextEncoder();

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
  /** Each open stream, with when it opened and how to end it. */
  const open = new Map<ReadableStreamDefaultController<Uint8Array>, { openedAt: number; finish: () => void }>();
  /** Streams admitted by the total cap, waiting for their per-order slot. */
  let opening = 0;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const ping = encoder.encode(': ping\n\n');

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
    // The heartbeat alone must not keep a process alive.
    (heartbeat as { unref?: () => void }).unref?.();
  };
  const stopHeartbeatIfIdle = () => {
    if (open.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
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
          // A retry hint for EventSource-like readers, then what the page has not seen yet.
          controller.enqueue(encoder.encode('retry: 2000\n\n'));
          unsubscribe = hub.subscribe(orderId, send);
          open.set(controller, { openedAt: Date.now(), finish });
          startHeartbeat();
          loadCurrent().then((current) => {
            if (current) send(current);
            // A final payment ends the stream now, whatever Last-Event-ID the page sent (one at or
            // above the current version would otherwise keep it open for nothing, for ever).
            if (current && finalPaymentStates.includes(current.state)) queueMicrotask(finish);
          }, finish);
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
      for (const stream of [...open.values()]) stream.finish();
      open.clear();
      stopHeartbeatIfIdle();
    },
  };
}
