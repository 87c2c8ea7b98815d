/**
 * The typed client for every endpoint an organisation API key reaches.
 *
 * - Bearer auth; `X-API-Key` does not exist.
 * - Every call has a timeout and honours the caller's AbortSignal.
 * - GETs retry with backoff on a lost answer; pay-in and pay-out never do: a lost answer is an
 *   unknown outcome (`error.outcomeUnknown`), and only the caller may re-post the same body.
 *
 * This file says which endpoint is called how (method, path, query, schema, retries); what one
 * call is (the HTTP exchange, its typed errors, the retries) is service-call.ts.
 */
import type { z } from 'zod';
import { jsonDecimal, stringifyJsonWithDecimals } from '../../contract/money.js';
import {
  corridorsSchema,
  countriesSchema,
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
import { runCall, type Call, type CallSettings } from './service-call.js';
import type { MetricsRecorder } from '../model/metrics-recorder.js';
import { companionDefaults } from '../model/option-defaults.js';

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

/**
 * @example
 * const service = createServiceClient({ baseUrl: process.env.MOMO_BASE_URL!, apiKey: process.env.MOMO_API_KEY! });
 * const { operators } = await service.corridors('+22997000001');
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const settings: CallSettings = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? companionDefaults.serviceTimeoutMs,
    fetchImpl: options.fetch ?? globalThis.fetch.bind(globalThis),
    log: options.log ?? silentLogger,
    baseDelayMs: options.retries?.baseDelayMs ?? 200,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
  const getRetries = options.retries?.attempts ?? 2;
  if (!options.apiKey) throw new TypeError('createServiceClient: apiKey is empty. Set MOMO_API_KEY.');

  const get = <S extends z.ZodType>(endpoint: string, path: string, schema: S, query: Call<S>['query'], signal: AbortSignal | undefined, retries = getRetries) =>
    runCall(settings, { endpoint, method: 'GET', path, query, schema, retries, creates: false, signal });
  const post = <S extends z.ZodType>(endpoint: string, path: string, schema: S, body: string, signal: AbortSignal | undefined) =>
    runCall(settings, { endpoint, method: 'POST', path, body, schema, retries: 0, creates: true, signal });

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
