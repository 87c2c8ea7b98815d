/**
 * The typed client for every endpoint an organisation API key reaches.
 *
 * - Bearer auth; `X-API-Key` does not exist.
 * - Every call has a timeout and honours the caller's AbortSignal.
 * - GETs retry with backoff on a lost answer; pay-in and pay-out never do: a lost answer is an
 *   unknown outcome (`error.outcomeUnknown`), and only the caller may re-post the same body.
 */
import type { z } from 'zod';
import { jsonDecimal, stringifyJsonWithDecimals } from '../../contract/money.js';
import {
  corridorsSchema,
  countriesSchema,
  describeSchemaError,
  operatorsSchema,
  payInAnswerSchema,
  payOutAnswerSchema,
  previewSchema,
  webhookSecretAnswerSchema,
  type CorridorsAnswer,
  type CountriesAnswer,
  type OperatorsAnswer,
  type PayInAnswer,
  type PayInRequest,
  type PayOutAnswer,
  type PayOutRequest,
  type PreviewAnswer,
  type PreviewRequest,
  type WebhookSecretAnswer,
} from '../../contract/upstream/index.js';
import { silentLogger, type Logger } from '../log.js';
import {
  AbortedError,
  ServiceNetworkError,
  ServiceError,
  TimeoutError,
  UnexpectedBodyError,
  UpstreamStatusError,
} from './errors.js';
import { mapErrorAnswer } from './map-error.js';
import type { MetricsRecorder } from '../model/metrics-recorder.js';

export interface ServiceClientOptions {
  /** The service's base URL, e.g. `https://api.example.com` (paths carry `/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Per attempt. Default 15 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  log?: Logger;
  /** Retries of GET calls on a lost answer (network, timeout, 5xx). Default 2 retries from 200 ms. */
  retries?: { attempts?: number; baseDelayMs?: number };
  /** Each call's endpoint, answer and duration (metrics/). */
  metrics?: MetricsRecorder;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ServiceClient {
  /** `GET /v1/corridors/available` for a number: operators per (operator, currency) pair, with bounds and decimals. */
  corridors(phone: string, options?: CallOptions): Promise<CorridorsAnswer['data']>;
  /** `GET /v1/operators`, optionally for one country (2 letters). */
  operators(country?: string, options?: CallOptions): Promise<OperatorsAnswer['data']>;
  /** `GET /v1/countries` (public): the countries with an active pay-in operator, their currencies. */
  countries(options?: CallOptions): Promise<CountriesAnswer['data']>;
  /**
   * `GET /v1/pay-in/preview`, the fee preview. It may durably assign a provider to a never-seen number: call it once per
   * (number, amount, operator) and cache the answer, never per keystroke.
   */
  previewPayIn(request: PreviewRequest, options?: CallOptions): Promise<PreviewAnswer['data']>;
  /**
   * `POST /v1/pay-in`. `200` means accepted, never paid: the outcome comes by webhook. Throws
   * `OtpRequiredError`/`RedirectUrlsRequiredError` (nothing created: re-post the same orderId with
   * the missing element), `AlreadyExistsError` (409), and on a lost answer an error with
   * `outcomeUnknown: true`. This method never retries and never changes the orderId; re-posting the
   * same body is the caller's safe move.
   */
  payIn(request: PayInRequest, options?: CallOptions): Promise<PayInAnswer['data']>;
  /** `POST /v1/pay-out`. With an API key it executes directly. Never retried, like `payIn`. */
  payOut(request: PayOutRequest, options?: CallOptions): Promise<PayOutAnswer['data']>;
  /** `POST /v1/webhook-secrets`. The secret is shown once: store it at once. */
  createWebhookSecret(options?: CallOptions): Promise<WebhookSecretAnswer['data']>;
}

interface Call<S extends z.ZodType> {
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

/**
 * @example
 * const service = createServiceClient({ baseUrl: process.env.MOMO_BASE_URL!, apiKey: process.env.MOMO_API_KEY! });
 * const { operators } = await service.corridors('+22997000001');
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const log = options.log ?? silentLogger;
  const getRetries = options.retries?.attempts ?? 2;
  const baseDelayMs = options.retries?.baseDelayMs ?? 200;
  if (!options.apiKey) throw new TypeError('createServiceClient: apiKey is empty. Set MOMO_API_KEY.');

  async function attempt<S extends z.ZodType>(call: Call<S>): Promise<z.infer<S>> {
    const url = new URL(baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      // URLSearchParams encodes `+` as `%2B` (assumptions.md): a raw `+` would arrive as a space.
      if (value !== undefined) url.searchParams.set(name, value);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
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
      response = await fetchImpl(url, { method: call.method, headers, body: call.body, signal, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      const failure = lost(error);
      log.warn('service call lost', { endpoint: call.endpoint, kind: failure.kind, ms: Date.now() - started });
      options.metrics?.upstreamCall(call.endpoint, failure.kind, (Date.now() - started) / 1000);
      throw failure;
    }
    log.info('service call', { endpoint: call.endpoint, method: call.method, status: response.status, ms: Date.now() - started });
    options.metrics?.upstreamCall(call.endpoint, String(response.status), (Date.now() - started) / 1000);

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

  async function run<S extends z.ZodType>(call: Call<S>): Promise<z.infer<S>> {
    for (let tried = 0; ; tried++) {
      try {
        return await attempt(call);
      } catch (error) {
        const retryable =
          error instanceof ServiceNetworkError ||
          error instanceof TimeoutError ||
          (error instanceof UpstreamStatusError && (error.httpStatus ?? 0) >= 500);
        if (!retryable || tried >= call.retries || call.signal?.aborted) throw error;
        // Exponential backoff with full jitter, so many companions do not retry in step.
        await sleep(Math.random() * baseDelayMs * 2 ** tried, call.signal);
      }
    }
  }

  const get = <S extends z.ZodType>(endpoint: string, path: string, schema: S, query: Call<S>['query'], signal: AbortSignal | undefined, retries = getRetries) =>
    run({ endpoint, method: 'GET', path, query, schema, retries, creates: false, signal });
  const post = <S extends z.ZodType>(endpoint: string, path: string, schema: S, body: string, signal: AbortSignal | undefined) =>
    run({ endpoint, method: 'POST', path, body, schema, retries: 0, creates: true, signal });

  return {
    async corridors(phone, callOptions) {
      const answer = await get('corridors', '/v1/corridors/available', corridorsSchema, { phone, transactionType: 'payin' }, callOptions?.signal);
      return answer.data;
    },
    async operators(country, callOptions) {
      if (country !== undefined && country.length !== 2) {
        throw new TypeError(`operators: country must be exactly 2 characters (an ISO code such as BJ), got ${JSON.stringify(country)}.`);
      }
      return (await get('operators', '/v1/operators', operatorsSchema, { country }, callOptions?.signal)).data;
    },
    async countries(callOptions) {
      return (await get('countries', '/v1/countries', countriesSchema, {}, callOptions?.signal)).data;
    },
    async previewPayIn(request, callOptions) {
      // At most one retry: idempotent for the same number, but each call may touch the dispatch (§4.2).
      const answer = await get(
        'preview',
        '/v1/pay-in/preview',
        previewSchema,
        { phoneNumber: request.phoneNumber, currencyCode: request.currencyCode, amount: request.amount, operatorCode: request.operatorCode },
        callOptions?.signal,
        Math.min(1, getRetries),
      );
      return answer.data;
    },
    async payIn(request, callOptions) {
      const body = stringifyJsonWithDecimals({ ...request, amount: jsonDecimal(request.amount) });
      return (await post('pay-in', '/v1/pay-in', payInAnswerSchema, body, callOptions?.signal)).data;
    },
    async payOut(request, callOptions) {
      const body = stringifyJsonWithDecimals({ ...request, amount: jsonDecimal(request.amount) });
      return (await post('pay-out', '/v1/pay-out', payOutAnswerSchema, body, callOptions?.signal)).data;
    },
    async createWebhookSecret(callOptions) {
      return (await post('webhook-secrets', '/v1/webhook-secrets', webhookSecretAnswerSchema, '{}', callOptions?.signal)).data;
    },
  };
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
