/**
 * Assumptions about the service's error answers (assumptions.md "Error envelope" and "422 body").
 * The document (§7) names the codes but shows no body; these shapes are our assumption, kept here
 * so a change on the real service shows up in one place.
 */
import { z } from 'zod';

/** Codes assumptions.md lists; anything else is kept as a plain string, never a parse error. */
export const knownErrorCodes = [
  'VALIDATION_ERROR',
  'AMOUNT_OUT_OF_RANGE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'OTP_REQUIRED',
  'REDIRECT_URLS_REQUIRED',
] as const;
export type KnownErrorCode = (typeof knownErrorCodes)[number];

/** Every non-2xx answer. `code` may be absent: a `409` carries none (key on the HTTP status). */
export const errorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** §7 / assumptions.md: a `422` carries `status` and `data.workflow`. Nothing was created. */
export const missingElementSchema = z.looseObject({
  success: z.literal(false),
  code: z.enum(['OTP_REQUIRED', 'REDIRECT_URLS_REQUIRED']),
  status: z.string().optional(),
  message: z.string().optional(),
  data: z.looseObject({ workflow: z.string() }),
});
export type MissingElementBody = z.infer<typeof missingElementSchema>;
