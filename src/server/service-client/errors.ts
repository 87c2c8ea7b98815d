/**
 * Typed errors of the service client: one class per way a call to the service can end badly, each
 * with a message that tells the reader what to do. `outcomeUnknown` marks a pay-in or pay-out whose
 * answer was lost: it may or may not exist upstream, and the only safe move is to re-post the same
 * body with the same `orderId` (a `409` then means it exists).
 */
export type ServiceErrorKind =
  | 'validation'
  | 'amount-out-of-range'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'already-exists'
  | 'otp-required'
  | 'redirect-urls-required'
  | 'upstream-status'
  | 'unexpected-body'
  | 'network'
  | 'timeout'
  | 'aborted';

export interface ServiceErrorDetails {
  httpStatus?: number;
  code?: string;
  /** The service's own message, for logs only: never forwarded to a payer. */
  upstreamMessage?: string;
  outcomeUnknown?: boolean;
  cause?: unknown;
}

export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly httpStatus: number | undefined;
  readonly code: string | undefined;
  readonly upstreamMessage: string | undefined;
  /** True when a pay-in/pay-out may have been created although no answer says so. */
  outcomeUnknown: boolean;

  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    details: ServiceErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.httpStatus = details.httpStatus;
    this.code = details.code;
    this.upstreamMessage = details.upstreamMessage;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

/** 400 VALIDATION_ERROR, including an amount with more decimals than the currency allows. */
export class ValidationError extends ServiceError {
  override name = 'ValidationError';
}
/** 400 AMOUNT_OUT_OF_RANGE: the rejection is authoritative, not the displayed bounds. */
export class AmountOutOfRangeError extends ServiceError {
  override name = 'AmountOutOfRangeError';
}
export class UnauthorizedError extends ServiceError {
  override name = 'UnauthorizedError';
}
export class ForbiddenError extends ServiceError {
  override name = 'ForbiddenError';
}
export class NotFoundError extends ServiceError {
  override name = 'NotFoundError';
}
/** 409: the transaction for this `orderId` exists. Never change the `orderId`. */
export class AlreadyExistsError extends ServiceError {
  override name = 'AlreadyExistsError';
}
/** 422: nothing was created; re-post with the same `orderId` and the missing element. */
export class MissingElementError extends ServiceError {
  override name = 'MissingElementError';
  constructor(
    kind: 'otp-required' | 'redirect-urls-required',
    message: string,
    readonly workflow: string,
    details: ServiceErrorDetails = {},
  ) {
    super(kind, message, details);
  }
}
export class OtpRequiredError extends MissingElementError {
  override name = 'OtpRequiredError';
}
export class RedirectUrlsRequiredError extends MissingElementError {
  override name = 'RedirectUrlsRequiredError';
}
/** Any other status: a 5xx, a proxy's HTML page. */
export class UpstreamStatusError extends ServiceError {
  override name = 'UpstreamStatusError';
}
/** The answer is not the envelope, or misses a field we rely on (the message names it). */
export class UnexpectedBodyError extends ServiceError {
  override name = 'UnexpectedBodyError';
}
/**
 * Connection refused, reset or cut before a whole answer arrived from the payment service. Named
 * apart from the browser client's `NetworkError` (`momo-checkout`): one name, one class, whichever
 * entries a project imports.
 */
export class ServiceNetworkError extends ServiceError {
  override name = 'ServiceNetworkError';
}
export class TimeoutError extends ServiceError {
  override name = 'TimeoutError';
}
/** The caller's own AbortSignal fired. */
export class AbortedError extends ServiceError {
  override name = 'AbortedError';
}
