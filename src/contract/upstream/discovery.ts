/**
 * Discovery answers: corridors (§4.6, §2.7), operators (§4.4) and countries (§4.5).
 * The corridor and country shapes are "not shown" in the document; assumptions.md fixes them.
 */
import { z } from 'zod';

/** `workflowType` values §2.6 names. Unknown strings are kept: a new workflow must not break parsing. */
export const knownWorkflows = ['provider_auth', 'pre_authorized', 'redirect_url'] as const;
export type KnownWorkflow = (typeof knownWorkflows)[number];
export const workflowSchema = z.string().min(1);

/** §2.7 operator: `code`, `name`, `logoUrl`. */
export const operatorSchema = z.looseObject({
  code: z.string().min(1),
  name: z.string(),
  logoUrl: z.string(),
});
export type UpstreamOperator = z.infer<typeof operatorSchema>;

export const currencySchema = z.looseObject({
  code: z.string().min(1),
  decimalPlaces: z.number().int().min(0).max(18),
});

/**
 * One entry per (operator, currency) pair (§2.1 Bounds): an operator serving two currencies appears
 * twice. `maxAmountMajor: null` means no ceiling. `instructions` may be empty or absent (§2.7): the
 * payer then sees our fallback text. `workflowType` is a display hint only.
 */
export const corridorOperatorSchema = operatorSchema.extend({
  country: z.string().optional(),
  workflowType: workflowSchema,
  minAmountMajor: z.number().nonnegative(),
  maxAmountMajor: z.number().positive().nullable().optional().transform((value) => value ?? null),
  instructions: z.string().nullable().optional().transform((value) => value ?? ''),
  currencies: z.array(currencySchema).min(1),
});
export type CorridorOperator = z.infer<typeof corridorOperatorSchema>;

export const corridorsSchema = z.looseObject({
  success: z.literal(true),
  data: z.looseObject({
    phone: z.string().optional(),
    country: z.string().optional(),
    transactionType: z.string().optional(),
    operators: z.array(corridorOperatorSchema),
  }),
});
export type CorridorsAnswer = z.infer<typeof corridorsSchema>;

export const operatorsSchema = z.looseObject({
  success: z.literal(true),
  data: z.looseObject({ operators: z.array(operatorSchema) }),
});
export type OperatorsAnswer = z.infer<typeof operatorsSchema>;

/** §4.5 is public and its shape "not shown": assumptions.md's shape. */
export const countriesSchema = z.looseObject({
  success: z.literal(true),
  data: z.looseObject({
    countries: z.array(
      z.looseObject({
        code: z.string().length(2),
        name: z.string(),
        dialCode: z.string().optional(),
        currencies: z.array(z.string()).optional().transform((value) => value ?? []),
        operators: z.array(operatorSchema).optional().transform((value) => value ?? []),
      }),
    ),
  }),
});
export type CountriesAnswer = z.infer<typeof countriesSchema>;
