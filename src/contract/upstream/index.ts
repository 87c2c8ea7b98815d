/**
 * The payment service's interface as this project assumes it: every shape the document shows, and
 * the ones it leaves "not shown" fixed by assumptions.md. Server-side only (classic zod).
 */
export * from './errors.js';
export * from './discovery.js';
export * from './payments.js';
export * from './webhook.js';
export { describeSchemaError } from './describe-issue.js';
