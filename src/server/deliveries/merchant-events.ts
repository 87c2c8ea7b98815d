/**
 * Which notification types the merchant's endpoint receives (issue 36), as Stripe's
 * `enabled_events` and Svix's event-type filters do: an endpoint gets only the types it asked for,
 * so a type added in a later release never reaches a handler written before it existed.
 *
 * `test.ping` too is sent only to an endpoint that lists it, and then only when someone asks
 * (`momo-checkout ping`, the console's "Send test notification"): once, never queued or retried
 * (merchant-notifications.ts). A handler written for `payment.updated` alone fails on it (0.1.0's
 * Python shop answered 500, its PHP shop stored a junk row), so asking for one is not enough.
 */
import { CompanionConfigError } from '../config-error.js';
import { merchantEventTypes, merchantNotificationKinds, type MerchantEventType } from '../model/notification-kinds.js';

/** The types a merchant endpoint can subscribe to (one per kind); `test.ping` is sent only when asked for besides. */
export { merchantEventTypes, type MerchantEventType };

/**
 * The default: the types that existed when release 0.1.0 documented the endpoint (`byDefault` in the
 * table of kinds). A shop opts in to every type added since (`refund.updated`), so upgrading never
 * sends it a body it cannot read.
 */
export const defaultMerchantEvents: readonly MerchantEventType[] = Object.values(merchantNotificationKinds)
  .filter((entry) => entry.byDefault)
  .map((entry) => entry.event);

/**
 * Checks a list of types (the `merchantEvents` option, or `MOMO_MERCHANT_EVENTS` split on commas)
 * and answers it without repeats; throws a CompanionConfigError saying what to write instead.
 */
export function checkMerchantEvents(events: readonly string[], source = 'merchantEvents'): MerchantEventType[] {
  const known = merchantEventTypes.join(', ');
  if (events.length === 0) {
    throw new CompanionConfigError(`${source} lists no notification type: list those your endpoint handles (${known}), or leave it out for ${defaultMerchantEvents.join(', ')} only.`);
  }
  const chosen = new Set<MerchantEventType>();
  for (const event of events) {
    if (!(merchantEventTypes as readonly string[]).includes(event)) {
      throw new CompanionConfigError(`${source} lists ${JSON.stringify(event)}, which is not a notification type: write some of ${known}, separated by commas.`);
    }
    chosen.add(event as MerchantEventType);
  }
  return [...chosen];
}

/** `MOMO_MERCHANT_EVENTS` (comma-separated) read, or the default when it is unset or blank. */
export function merchantEventsFromEnv(text: string | undefined): MerchantEventType[] {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return [...defaultMerchantEvents];
  return checkMerchantEvents(
    trimmed.split(',').map((item) => item.trim()).filter(Boolean),
    'MOMO_MERCHANT_EVENTS',
  );
}

/** The types the endpoint takes: the option checked, or the default. */
export function subscribedEvents(events: readonly string[] | undefined): readonly MerchantEventType[] {
  return events === undefined ? defaultMerchantEvents : checkMerchantEvents(events);
}
