export { statuses, eventTypes } from './states.js';
export type { Status, EventType } from './states.js';
export { initialState, transitions, next, target } from './machine.js';
export type { MachineState } from './machine.js';
export { eventForCheckout, eventForPayment } from './events.js';
export type { CheckoutEvent, PaymentEvent, Problem, ProblemCode } from './events.js';
