/** Answers in the service's envelopes (§4, assumptions.md §Error envelope and §422 body). */

export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'OTP_REQUIRED'
  | 'REDIRECT_URLS_REQUIRED';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

export function ok(data: unknown, status = 200): Response {
  return json(status, { success: true, data });
}

export function fail(status: number, code: ErrorCode, message: string): Response {
  return json(status, { success: false, code, message });
}

/** assumptions.md: `status` repeats `code`, and `data.workflow` names what is needed. Nothing was created. */
export function missingElement(code: 'OTP_REQUIRED' | 'REDIRECT_URLS_REQUIRED', message: string): Response {
  const workflow = code === 'OTP_REQUIRED' ? 'pre_authorized' : 'redirect_url';
  return json(422, { success: false, code, status: code, message, data: { workflow } });
}

/** §7: a 409 names no code; callers key on the HTTP status. */
export function conflict(message: string): Response {
  return json(409, { success: false, message });
}
