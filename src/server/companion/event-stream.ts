/**
 * The status stream: Server-Sent Events over a plain `ReadableStream`, so it runs on every
 * runtime that speaks `Response`. One `payment` event per transition, `id:` the view's version so
 * a reconnecting page sends `Last-Event-ID` and gets only what it missed. All open streams share
 * one heartbeat interval (no timer per stream), and a stream ends after a final state.
 */
import { finalPaymentStates, type PaymentView } from '../../contract/companion.js';
import type { StatusHub } from './status-hub.js';

const encoder = new TextEncoder();

export interface EventStreams {
  /** `loadCurrent` is read after subscribing, so a transition between the two is never lost. */
  open(orderId: string, loadCurrent: () => Promise<PaymentView | null>, lastEventId: number, signal: AbortSignal): Response;
  /** Open streams. */
  size(): number;
  close(): void;
}

export function createEventStreams(hub: StatusHub, heartbeatMs: number): EventStreams {
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const ping = encoder.encode(': ping\n\n');

  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      for (const controller of open) {
        try {
          controller.enqueue(ping);
        } catch {
          open.delete(controller);
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
    open(orderId, loadCurrent, lastEventId, signal) {
      let unsubscribe = () => {};
      let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
      let closed = false;
      const finish = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
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
          open.add(controller);
          startHeartbeat();
          loadCurrent().then((current) => current && send(current), finish);
          signal.addEventListener('abort', finish, { once: true });
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
      for (const controller of open) {
        try {
          controller.close();
        } catch {
          // already closed
        }
      }
      open.clear();
      stopHeartbeatIfIdle();
    },
  };
}
