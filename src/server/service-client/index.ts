export { createServiceClient } from './client.js';
export type { CallOptions, ServiceClient, ServiceClientOptions } from './client.js';
export * from './errors.js';
