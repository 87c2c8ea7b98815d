export { createServiceClient } from './client.js';
export type { CallOptions, ServiceClient, ServiceClientOptions } from './client.js';
export * from './errors.js';
export { postUnderRepostRule, postedRequestKey, type PostedRequestFields, type RepostOutcome } from './repost-rule.js';
