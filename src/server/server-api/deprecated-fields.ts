/**
 * Field names the server API renamed, still served beside their new names (issue 36: deprecation
 * instead of removal). Release 0.1.0's delivery log said `id` and `state` for a pending delivery and
 * `deliveryId` for an attempt; 0.2.0 names them `webhookId` and `reportedState` (what they are) and
 * keeps the old names, marked `deprecated` in the OpenAPI document, for at least one minor
 * release. 0.2.0 said they would go in 0.3.0 at the earliest; every release since still serves
 * them, and the one that removes them says so under "Breaking" in CHANGELOG.md (issue 53: a date
 * long past read as a promise broken). Everything that serves or documents an old name is in this
 * file, so removing them is deleting it and its three uses.
 */
import { z } from '@hono/zod-openapi';

const note = (newName: string) => `Deprecated: the same value as \`${newName}\`, under its 0.1.0 name. Read \`${newName}\`; the release that removes this name says so under Breaking in CHANGELOG.md.`;

/** The old names of a pending delivery's fields, for its schema (`state` had payment states only in 0.1.0). */
export function deprecatedPendingFields<S extends z.ZodType>(reportedState: S) {
  return {
    id: z.string().openapi({ deprecated: true, description: note('webhookId') }),
    state: reportedState.openapi({ deprecated: true, description: note('reportedState') }),
  };
}

/** The old name of an attempt's `webhookId`, for its schema. */
export const deprecatedAttemptFields = {
  deliveryId: z.string().openapi({ deprecated: true, description: note('webhookId') }),
};

/** A pending delivery as the API answers it: the old names after the new ones. */
export function withDeprecatedPendingNames<T extends { webhookId: string; reportedState: string }>(delivery: T): T & { id: string; state: T['reportedState'] } {
  return { ...delivery, id: delivery.webhookId, state: delivery.reportedState };
}

/** A logged attempt as the API answers it: `deliveryId` beside `webhookId`. */
export function withDeprecatedAttemptNames<T extends { webhookId: string }>(attempt: T): T & { deliveryId: string } {
  return { ...attempt, deliveryId: attempt.webhookId };
}
