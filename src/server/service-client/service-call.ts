/**
 * One call to the service over HTTP, and its retries: the URL and its query, the Bearer key, the
 * timeout joined to the caller's AbortSignal, every failure turned into a typed `ServiceError`
 * (a lost answer, a non-2xx, a body that is not the expected shape), and backoff with jitter for
 * the calls that may be retried. Apart from the client (client.ts), which says which endpoint is
 * called how; this says what a call is, once for all of them.
 */
import type { z } from 'zod';
import { describeSchemaError } from '../../contract/upstream/index.js';
import type { Logger } from '../log.js';
import { AbortedError, ServiceNetworkError, TimeoutError, UnexpectedBodyError, UpstreamStatusError, type ServiceError } from './errors.js';
import { mapErrorAnswer } from './map-error.js';
import type { MetricsRecorder } from '../model/metrics-recorder.js';

/** The client's settings, defaults applied, that every call reads. */
export interface CallSettings {
  /** Without a trailing `/`. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  fetchImpl: typeof fetch;
  log: Logger;
  /** The first retry's mean wait; each one after doubles it. */
  baseDelayMs: number;
  metrics?: MetricsRecorder;
}

export interface Call<S extends z.ZodType> {
  endpoint: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  body?: string;
  schema: S;
  /** How many extra attempts after a lost answer. */
  retries: number;
  /** A lost answer may mean the thing was created (pay-in, pay-out). */
  creates: boolean;
  signal: AbortSignal | undefined;
}

/** One HTTP exchange: resolves with the answer parsed by `call.schema`, or throws a `ServiceError`. */
export async function attemptCall<S extends z.ZodType>(settings: CallSettings, call: Call<S>): Promise<z.infer<S>> {
  const { timeoutMs, log } = settings;
  const url = new URL(settings.baseUrl + call.path);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    // URLSearchParams encodes `+` as `%2B` (assumptions.md): a raw `+` would arrive as a space.
    if (value !== undefined) url.searchParams.set(name, value);
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const headers: Record<string, string> = {
    authorization: `Bearer ${settings.apiKey}`,
    accept: 'application/json',
  };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const started = Date.now();
  const lost = (error: unknown): ServiceError => {
    if (call.signal?.aborted) return new AbortedError('aborted', `${call.endpoint}: cancelled by the caller.`, { cause: error });
    if (timeout.aborted) {
      return new TimeoutError(
        'timeout',
        `${call.endpoint}: no answer within ${timeoutMs} ms.${call.creates ? ' The outcome is unknown: re-post the same body (409 means it exists).' : ''}`,
        { cause: error, outcomeUnknown: call.creates },
      );
    }
    return new ServiceNetworkError(
      'network',
      `${call.endpoint}: the connection failed or was cut before a whole answer arrived. Check MOMO_BASE_URL and the network.${call.creates ? ' The outcome is unknown: re-post the same body (409 means it exists).' : ''}`,
      { cause: error, outcomeUnknown: call.creates },
    );
  };

  let response: Response;
  let text: string;
  try {
    response = await settings.fetchImpl(url, { method: call.method, headers, body: call.body, signal, redirect: 'manual' });
    text = await response.text();
  } catch (error) {
    const failure = lost(error);
    log.warn('service call lost', { endpoint: call.endpoint, kind: failure.kind, ms: Date.now() - started });
    settings.metrics?.upstreamCall(call.endpoint, failure.kind, (Date.now() - started) / 1000);
    throw failure;
  }
  log.info('service call', { endpoint: call.endpoint, method: call.method, status: response.status, ms: Date.now() - started });
  settings.metrics?.upstreamCall(call.endpoint, String(response.status), (Date.now() - started) / 1000);

  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status < 200 || response.status >= 300) {
    const failure = mapErrorAnswer(call.endpoint, response.status, body);
    if (call.creates && failure instanceof UpstreamStatusError) failure.outcomeUnknown = true;
    throw failure;
  }
  const parsed = call.schema.safeParse(body);
  if (!parsed.success) {
    const detail = body === undefined ? `${call.endpoint}: the answer is not JSON` : describeSchemaError(call.endpoint, parsed.error);
    throw new UnexpectedBodyError(
      'unexpected-body',
      `${detail}. The service's answer changed or MOMO_BASE_URL points elsewhere.${call.creates ? ' The outcome is unknown: re-post the same body (409 means it exists).' : ''}`,
      { httpStatus: response.status, outcomeUnknown: call.creates },
    );
  }
  return parsed.data;
}

/** Attempts the call, and again after a lost answer or a 5xx while `call.retries` allows and the caller has not cancelled. */
export async function runCall<S extends z.ZodType>(settings: CallSettings, call: Call<S>): Promise<z.infer<S>> {
  for (let tried = 0; ; tried++) {
    try {
      return await attemptCall(settings, call);
    } catch (error) {
      const retryable =
        error instanceof ServiceNetworkError ||
        error instanceof TimeoutError ||
        (error instanceof UpstreamStatusError && (error.httpStatus ?? 0) >= 500);
      if (!retryable || tried >= call.retries || call.signal?.aborted) throw error;
      // Exponential backoff with full jitter, so many companions do not retry in step.
      await sleep(Math.random() * settings.baseDelayMs * 2 ** tried, call.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
