/**
 * One delivery attempt of one notification, as §6.4 describes it: POST application/json, a single
 * attempt, 30 s timeout, redirects not followed (a 3xx is a failure), any non-2xx lost for good.
 */
import type { DeliveryResult } from './types.js';
import { certificateAdvice } from '../contract/tls-failure.js';

/** §6.4 Timeout. */
export const WEBHOOK_TIMEOUT_MS = 30_000;

export interface DeliveryRequest {
  orderId: string;
  status: string;
  url: string;
  body: string;
  at: number;
  /** Aborted when the sandbox closes, so no attempt outlives it. */
  signal: AbortSignal;
  timeoutMs?: number;
  /** The sandbox's clock, for `endedAt`. Default `Date.now`. */
  now?: () => number;
}

export async function deliverOnce(request: DeliveryRequest): Promise<DeliveryResult> {
  const ended = () => ({ orderId: request.orderId, status: request.status, url: request.url, body: request.body, at: request.at, endedAt: (request.now ?? Date.now)() });
  const timeout = AbortSignal.timeout(request.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request.body,
      // §6.4: redirects are not followed; a 301/302 is a lost notification.
      redirect: 'manual',
      signal: AbortSignal.any([timeout, request.signal]),
    });
    await response.body?.cancel().catch(() => undefined);
    const httpStatus = response.status;
    if (httpStatus >= 200 && httpStatus < 300) return { ...ended(), ok: true, httpStatus };
    const error =
      httpStatus >= 300 && httpStatus < 400
        ? `the receiver answered a ${httpStatus} redirect, which the service does not follow: the notification is lost`
        : `the receiver answered ${httpStatus}, not 2xx: the notification is lost (the service makes one attempt)`;
    return { ...ended(), ok: false, httpStatus, error };
  } catch (cause) {
    const error = timeout.aborted
      ? `no answer within ${request.timeoutMs ?? WEBHOOK_TIMEOUT_MS} ms: the notification is lost (the service makes one attempt)`
      : request.signal.aborted
        ? 'the sandbox closed during the attempt: the notification is lost'
        : `could not reach the receiver (${describe(cause)}): the notification is lost${untrustedCertificateHint(cause)}`;
    return { ...ended(), ok: false, error };
  }
}

/** What fixes a receiver's certificate this process does not trust (the real service trusts only public CAs). */
function untrustedCertificateHint(cause: unknown): string {
  const advice = certificateAdvice(cause, 'the sandbox');
  return advice ? `. ${advice[0]!.toUpperCase()}${advice.slice(1)}` : '';
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as Error & { cause?: unknown }).cause;
    const code = inner && typeof inner === 'object' && 'code' in inner ? String((inner as { code: unknown }).code) : '';
    return code ? `${cause.message}: ${code}` : cause.message;
  }
  return String(cause);
}
