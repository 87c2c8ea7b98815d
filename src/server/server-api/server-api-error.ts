/**
 * The server API's one refusal: a code, its status, and a sentence that says what to fix. Its own
 * file, so every route file (the main ones, refunds, redeliveries) throws it without importing the
 * file that assembles them.
 */
export type ServerApiErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'BROWSER_NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOTIFICATION_REFUSED'
  | 'STORE_UNAVAILABLE'
  | 'NO_MERCHANT_ENDPOINT'
  | 'INTERNAL';

const statusOf: Record<ServerApiErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500 | 503> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  BROWSER_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NOTIFICATION_REFUSED: 422,
  STORE_UNAVAILABLE: 503,
  NO_MERCHANT_ENDPOINT: 409,
  INTERNAL: 500,
};

/** Every refusal of the server API: `{ error: { code, message } }`, the message says what to fix. */
export class ServerApiError extends Error {
  override name = 'ServerApiError';
  constructor(
    readonly code: ServerApiErrorCode,
    message: string,
    /**
     * The body was refused unread or unparsed: answered with `Connection: close`, because the
     * adapter then closes the socket, and a pooled client must not send its next request on it.
     */
    readonly refusesBody = false,
  ) {
    super(message);
  }
  get status() {
    return statusOf[this.code];
  }
}
