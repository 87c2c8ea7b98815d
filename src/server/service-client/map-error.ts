/** Turns a non-2xx answer into the typed error a caller can act on (§7, assumptions.md). */
import { errorEnvelopeSchema, missingElementSchema } from '../../contract/upstream/index.js';
import {
  AlreadyExistsError,
  AmountOutOfRangeError,
  ForbiddenError,
  NotFoundError,
  OtpRequiredError,
  RedirectUrlsRequiredError,
  type ServiceError,
  UnauthorizedError,
  UnexpectedBodyError,
  UpstreamStatusError,
  ValidationError,
} from './errors.js';

export function mapErrorAnswer(endpoint: string, httpStatus: number, body: unknown): ServiceError {
  const envelope = errorEnvelopeSchema.safeParse(body);
  const code = envelope.success ? envelope.data.code : undefined;
  const upstreamMessage = envelope.success ? envelope.data.message : undefined;
  const details = { httpStatus, code, upstreamMessage };

  // §7: a 409 carries no code; key on the status.
  if (httpStatus === 409) {
    return new AlreadyExistsError(
      'already-exists',
      `${endpoint}: the transaction for this orderId already exists (409). Do not change the orderId; wait for its webhook.`,
      details,
    );
  }
  if (httpStatus === 422) {
    const missing = missingElementSchema.safeParse(body);
    if (missing.success) {
      const workflow = missing.data.data.workflow;
      return missing.data.code === 'OTP_REQUIRED'
        ? new OtpRequiredError(
            'otp-required',
            `${endpoint}: this corridor needs an OTP from the payer (422 OTP_REQUIRED); nothing was created. Re-post the same orderId with the otp.`,
            workflow,
            details,
          )
        : new RedirectUrlsRequiredError(
            'redirect-urls-required',
            `${endpoint}: this corridor needs redirectUrls (422 REDIRECT_URLS_REQUIRED); nothing was created. Re-post the same orderId with redirectUrls.success and .failure.`,
            workflow,
            details,
          );
    }
  }
  if (httpStatus === 400 && code === 'AMOUNT_OUT_OF_RANGE') {
    return new AmountOutOfRangeError(
      'amount-out-of-range',
      `${endpoint}: the amount is outside the operator's bounds (400 AMOUNT_OUT_OF_RANGE). Use an amount within minAmountMajor..maxAmountMajor.`,
      details,
    );
  }
  if (httpStatus === 400 && code === 'VALIDATION_ERROR') {
    return new ValidationError(
      'validation',
      `${endpoint}: the service refused the request (400 VALIDATION_ERROR). Check the phone number (E.164), the amount's decimals for the currency, and the fields.`,
      details,
    );
  }
  if (httpStatus === 401) {
    return new UnauthorizedError(
      'unauthorized',
      `${endpoint}: the service refused the API key (401). Check MOMO_API_KEY: it must be an organisation API key sent as Bearer.`,
      details,
    );
  }
  if (httpStatus === 403) {
    return new ForbiddenError('forbidden', `${endpoint}: the API key may not call this endpoint (403).`, details);
  }
  if (httpStatus === 404) {
    return new NotFoundError('not-found', `${endpoint}: not found (404). Check MOMO_BASE_URL.`, details);
  }
  if (!envelope.success && httpStatus < 500) {
    return new UnexpectedBodyError(
      'unexpected-body',
      `${endpoint}: answer ${httpStatus} is not the service's error envelope. Is MOMO_BASE_URL the service, not a proxy or a web page?`,
      details,
    );
  }
  return new UpstreamStatusError(
    'upstream-status',
    `${endpoint}: the service answered ${httpStatus}. Retry later; a pay-in's outcome is unknown until its webhook or a 409 on re-post.`,
    details,
  );
}
