/**
 * Fee preview (§4.2, §2.6), pay-in (§4.1, §2.3), pay-out (§4.3, §2.4) and webhook-secret creation
 * (§4.7). Requests are our own types (amounts as decimal strings); answers are parsed leniently.
 */
import { z } from 'zod';
import { workflowSchema } from './discovery.js';

/** §2.6. Fees are display-only estimates (§2.1 Preview accuracy). */
export const previewSchema = z.looseObject({
  success: z.literal(true),
  data: z.looseObject({
    feeProvider: z.number(),
    feePlatform: z.number(),
    feeTotal: z.number(),
    amountCredited: z.number(),
    workflowType: workflowSchema,
  }),
});
export type PreviewAnswer = z.infer<typeof previewSchema>;

/** §2.5. assumptions.md: a pay-in `200` says `pending`; it is never proof of payment (§1.3). */
export const transactionSchema = z.looseObject({
  orderId: z.string().min(1),
  transactionId: z.string().min(1),
  status: z.string().min(1),
  message: z.string().optional(),
  failureCategory: z.string().nullable().optional(),
  failureReason: z.string().nullable().optional(),
});

export const payInAnswerSchema = z.looseObject({ success: z.literal(true), data: transactionSchema });
export type PayInAnswer = z.infer<typeof payInAnswerSchema>;

export const payOutAnswerSchema = z.looseObject({
  success: z.literal(true),
  data: transactionSchema.extend({ newBalance: z.number().optional() }),
});
export type PayOutAnswer = z.infer<typeof payOutAnswerSchema>;

/** §4.7: payload and answer "not shown". Assumed: `{ success, data: { secret: 'whsec_...' } }`. */
export const webhookSecretAnswerSchema = z.looseObject({
  success: z.literal(true),
  data: z.looseObject({ secret: z.string().startsWith('whsec_') }),
});
export type WebhookSecretAnswer = z.infer<typeof webhookSecretAnswerSchema>;

/** §2.3. `amount` is a canonical decimal string (see contract/money.ts), written as a JSON number. */
export interface PayInRequest {
  orderId: string;
  amount: string;
  phoneNumber: string;
  currencyCode: string;
  /** §2.3: passed exactly as the payer typed it, never validated. */
  otp?: string;
  redirectUrls?: { success: string; failure: string };
  webhookUrl?: string;
  /** §2.3: only the exact literal `wallet` means anything; send it only when the payer chose it. */
  operatorCode?: 'wallet';
  customerId?: unknown;
}

/** §2.4 */
export interface PayOutRequest {
  orderId: string;
  amount: string;
  phoneNumber: string;
  currencyCode: string;
  webhookUrl?: string;
}

/** §4.2 query. */
export interface PreviewRequest {
  phoneNumber: string;
  currencyCode: string;
  amount: string;
  operatorCode?: string;
}
