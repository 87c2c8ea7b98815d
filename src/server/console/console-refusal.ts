/**
 * The console's refusals and their HTTP statuses, in one table: the session and origin checks
 * (console-routes.ts) and the JSON routes (console-api.ts) answer from it, so a code always means
 * one status. A refund's refusals are the server API's too: their table is
 * http-answers/refund-answers.ts.
 */
const consoleRefusalStatus = {
  /** A POST from another origin than the console's own page. */
  FORBIDDEN_ORIGIN: 403,
  /** No session, or one that ended. */
  SIGN_IN: 401,
  /** An action without the session's CSRF token. */
  CSRF: 403,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  /** An endpoint action on a companion that sends the shop no notifications. */
  NO_MERCHANT_ENDPOINT: 409,
  /** A payment link's refusal that is not the request's fault nor a missing link. */
  CONFLICT: 409,
} as const satisfies Record<string, 400 | 401 | 403 | 404 | 409>;

export type ConsoleRefusalCode = keyof typeof consoleRefusalStatus;

/** The body and status of a refusal: `c.json(...consoleRefusal('NOT_FOUND', 'No payment ...'))`. */
export function consoleRefusal<Code extends ConsoleRefusalCode>(code: Code, message: string) {
  return [{ error: { code, message } }, consoleRefusalStatus[code]] as const;
}
