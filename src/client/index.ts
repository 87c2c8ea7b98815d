export type { CompanionClient } from './types.js';
export { CompanionRequestError, NetworkError } from './errors.js';
export type { ClientErrorCode } from './errors.js';
export { createFetchClient } from './fetch-client.js';
export type { FetchClientOptions } from './fetch-client.js';
export { createScriptedClient } from './scripted-client.js';
export type { ClientScript, ScriptedCall, ScriptedClient } from './scripted-client.js';
export { createSseParser } from './sse-parser.js';
export type { ServerSentEvent, SseParser } from './sse-parser.js';
