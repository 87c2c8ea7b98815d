/**
 * The browser entry: the element class, its events and types, the companion clients. Registers
 * nothing (import `momo-checkout/define` for that) and touches no `window`/`document` at import,
 * so it can be imported during server-side rendering.
 */
export { MomoCheckout } from './element/momo-checkout.js';
export { MomoStateChangeEvent, MomoSubmitEvent, MomoSucceededEvent, MomoFailedEvent, MomoErrorEvent } from './element/events.js';
export type { StateChangeDetail, SubmitDetail, OutcomeDetail, ErrorDetail, MomoErrorCode } from './element/events.js';
export { createFetchClient, createScriptedClient, CompanionRequestError, NetworkError } from './client/index.js';
export type { ClientErrorCode, CompanionClient, FetchClientOptions, ClientScript, ScriptedClient, ScriptedCall } from './client/index.js';
export type { Status, MachineState } from './machine/index.js';
export { stringsFor, languageFor } from './localize/index.js';
export type { Strings, Language } from './localize/index.js';
