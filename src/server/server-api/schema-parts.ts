/**
 * What every server API route's contract shares (server-api-schemas.ts, redelivery-schemas.ts): the
 * payment states, the error body, the security scheme and the common error answers.
 */
import { z } from '@hono/zod-openapi';
import { hasUnusableCharacters, unusableIdReason } from '../model/id-text.js';
export { paymentStates } from '../../contract/companion.js';

/** `{orderId}` in a path: a NUL or a lone surrogate is a 400 on every store (model/id-text.ts). */
export const OrderIdPathParams = z.object({
  orderId: z
    .string()
    .refine((orderId) => !hasUnusableCharacters(orderId), unusableIdReason('order id'))
    .openapi({ param: { name: 'orderId', in: 'path' }, example: 'order-42' }),
});

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'BAD_REQUEST' }),
      message: z.string().openapi({ description: 'What went wrong and what to change.', example: 'Field "amount" in the JSON body is missing.' }),
    }),
  })
  .openapi('Error');

export const serverApiSecurity = [{ serverSecret: [] }];
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });
export const serverApiErrors = {
  400: jsonContent(ErrorSchema, 'The request is malformed: the message names the field. A refused body is answered with `Connection: close`: send the next call on a new connection.'),
  401: jsonContent(ErrorSchema, 'No or wrong server secret.'),
  403: jsonContent(ErrorSchema, 'The request came from a browser (it carried an Origin header): this API is for your backend only.'),
  503: {
    ...jsonContent(ErrorSchema, '`STORE_UNAVAILABLE`: the companion\'s store cannot be read or written (Redis down, a full disk, a locked file), answered within `storeTimeoutMs` (4 s). Retry the same call after `Retry-After` seconds: every call is safe to repeat.'),
    headers: z.object({ 'retry-after': z.string().openapi({ description: 'Seconds to wait before retrying.', example: '5' }) }),
  },
};
