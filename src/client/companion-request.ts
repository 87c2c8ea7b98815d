/**
 * One JSON request to the companion and what its answer means: the value the contract promises,
 * or a typed error that says what to check (`CompanionRequestError` with the companion's code,
 * `NetworkError` when no usable answer came). The token goes in the `Authorization` header, never
 * in a URL, where it would end up in logs.
 */
import { CompanionRequestError, NetworkError } from './errors.js';
import type { ClientErrorCode } from './errors.js';
import { AnswerShapeError, companionError } from './guards.js';

/** Where and how the client reaches its companion: shared by the requests and the status stream. */
export interface CompanionConnection {
  /** The mount point, without a trailing slash. */
  base: string;
  fetch: typeof fetch;
  /** `Bearer <checkout token>`. */
  authorization: string;
}

/**
 * What a status says by itself when the body is not the companion's envelope: a proxy's or a load
 * balancer's page in front of the companion (a 429 from a rate limiter, a 502/503/504 while the
 * companion restarts). These are worth a retry, unlike a page that is not a companion at all.
 */
function statusCode(status: number): ClientErrorCode | null {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 502 || status === 503 || status === 504) return 'SERVICE_UNAVAILABLE';
  return null;
}

/** A request its caller cancelled (an AbortSignal): rethrown as is, never a problem to report. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The request function of one client: `request(path, read, init)` fetches `path` and reads its JSON
 * answer with `read` (a guard from guards.ts); an abort is rethrown as is. A closure over the
 * connection rather than a function taking it: the script-tag file is within bytes of its budget,
 * and a closure's variables minify where an object's keys do not.
 */
export function createCompanionRequest(connection: CompanionConnection) {
  const { base, fetch: doFetch, authorization } = connection;
  return async function request<T>(path: string, read: (body: unknown) => T, init: RequestInit = {}): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(base + path, {
        ...init,
        headers: {
          accept: 'application/json',
          authorization,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new NetworkError(
        `Could not reach the companion at ${base}${path}: check the element's endpoint attribute, that the companion's allowedOrigins lists this page's origin (CORS), and the network.`,
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (isAbort(error)) throw error;
      const known = statusCode(response.status);
      if (known) throw new CompanionRequestError(known, response.status, `${base}${path} answered HTTP ${response.status}: ${known}.`);
      throw new NetworkError(
        `${base}${path} answered HTTP ${response.status} with a body that is not JSON: is the endpoint attribute the companion's mount point?`,
        true,
      );
    }
    if (!response.ok) {
      const envelope = companionError(body);
      if (envelope) throw new CompanionRequestError(envelope.code, response.status, envelope.message, envelope.details);
      const known = statusCode(response.status);
      if (known) throw new CompanionRequestError(known, response.status, `${base}${path} answered HTTP ${response.status}: ${known}.`);
      throw new NetworkError(`${base}${path} answered HTTP ${response.status} without an error code: is the companion the same version as the element?`, true);
    }
    try {
      return read(body);
    } catch (error) {
      if (error instanceof AnswerShapeError) throw new NetworkError(error.message, true);
      throw error;
    }
  };
}
