/**
 * A service notification's walk, in the order that makes a crash or a restart lose nothing:
 *
 * 1. verify the signature over the raw body (`verify-notification.ts`);
 * 2. enter the inbox (`inbox.ts`, keyed by `_nonce`: a duplicate stops here);
 * 3. the service is answered (the webhook route), or not yet (a relay waits for 4);
 * 4. apply it (`apply-notification.ts`: a monotone transition and the merchant's deliveries in one
 *    compare-and-set), then leave the inbox.
 *
 * A crash between 2 and 4 leaves the entry inside: `resume()` (at start, then periodically, in
 * every process) applies it again. Applying twice is harmless: transitions only move forward and
 * deliveries are written with the transition, so nothing is reported twice.
 */
import { DEFAULT_MAX_BYTES, readVerifiedWebhook } from '../../contract/webhook-signature/index.js';
import type { WebhookNotification } from '../../contract/upstream/index.js';
import type { BackgroundWork } from '../background-work.js';
import type { InboxEntry } from '../model/records.js';
import { StoreDataError } from '../stores/store.js';
import { applyNotification } from './apply-notification.js';
import { createInbox, inboxEntryOf } from './inbox.js';
import type { NotificationDeps, ReceiveOutcome, RelayOutcome } from './notification-types.js';
import { verifyNotification } from './verify-notification.js';
import { noMetrics, notificationResult, type MetricsRecorder } from '../model/metrics-recorder.js';

/**
 * The one body limit of a service notification: the verifier's own (64 KB). The companion hands it
 * to every way in (`Companion.webhookBodyLimit`), so an adapter refuses a larger body unread.
 */
export const maxNotificationBytes = DEFAULT_MAX_BYTES;

export interface NotificationReceiver {
  /** The webhook route: verified and kept before it resolves; applied after (in the background). */
  receive(raw: Uint8Array | string): Promise<ReceiveOutcome>;
  /** A relayed notification: the same, but resolves once it is applied. */
  receiveAndApply(raw: Uint8Array | string): Promise<RelayOutcome>;
  /** Applies every entry still in the inbox (a crash, a store outage); returns how many. */
  resume(): Promise<number>;
}

/** How long a duplicate waits before this process applies it (`applyDuplicate`). */
const duplicateDelayMs = 1_000;

/** Inbox entries read at once by `resume`, then applied together (at most `applyingAtOnce` at a time). */
const resumePage = 200;

/**
 * Notifications applied at once in one process, unless the store says how many it serves well
 * (`CheckoutStore.writersAtOnce`), the rest waiting their turn in arrival order. A burst kept in
 * the inbox (hundreds a second, each answered at once) would otherwise start as many applications
 * together, each asking the store for a connection: on a pooled store they queued for the pool past
 * its connect timeout and failed, left for the next resume 30 s later (issue 43). The file store
 * takes many more: it commits one turn's writes together, and 8 at a time left a burst of 6,000
 * applied seconds after it ended.
 */
const defaultApplyingAtOnce = 8;

export function createNotificationReceiver(deps: NotificationDeps & { background: BackgroundWork; metrics?: MetricsRecorder }): NotificationReceiver {
  const inbox = createInbox(deps);
  const metrics = deps.metrics ?? noMetrics;
  /** Every outcome is counted once: here where it ends, or after it is applied. */
  const counted = <T extends { kind: string; reason?: string }>(outcome: T): T => {
    metrics.notificationReceived(notificationResult(outcome));
    return outcome;
  };

  /** `counting: false` for a duplicate applied again, already counted as one. */
  const applyAndLeave = async (entry: InboxEntry, notification: WebhookNotification, { counting = true } = {}) => {
    const applied = await applyNotification(deps, notification).catch((error: unknown) => {
      if (!(error instanceof StoreDataError)) throw error;
      // Every store keeps any text a notification carries (the store contract's odd-text cases), so
      // this is a value no store should refuse: applied again it fails the same way, every round of
      // maintenance, for ever (issue 55). It leaves the inbox, said once as needing support.
      deps.log.error('service notification cannot be applied: the store refuses a value it would write; it leaves the inbox and needs support', {
        orderId: notification.orderId,
        status: notification.status,
        error,
      });
      return { kind: 'ignored', orderId: notification.orderId } as const;
    });
    await inbox.leave(entry);
    if (counting) metrics.notificationReceived(notificationResult(applied));
    return applied;
  };

  /** Applies after the answer, at most `applyingAtOnce` at a time. */
  const applyingAtOnce = deps.store.writersAtOnce ?? defaultApplyingAtOnce;
  // A queue read from `waitingFrom` on, not shifted: a burst leaves thousands waiting, and a shift
  // of a long array moves all the others (issue 43's profile: 7-10 % of a notification's CPU on the
  // memory store in a burst). Emptied when it is all read, or halved when mostly read.
  const waitingToApply: Array<(() => Promise<unknown>) | undefined> = [];
  let waitingFrom = 0;
  let applying = 0;
  const applyNext = () => {
    while (applying < applyingAtOnce && waitingFrom < waitingToApply.length) {
      const work = waitingToApply[waitingFrom]!;
      waitingToApply[waitingFrom++] = undefined;
      applying += 1;
      void work().finally(() => {
        applying -= 1;
        applyNext();
      });
    }
    if (waitingFrom === waitingToApply.length) {
      waitingToApply.length = 0;
      waitingFrom = 0;
    } else if (waitingFrom >= 1024 && waitingFrom * 2 >= waitingToApply.length) {
      waitingToApply.splice(0, waitingFrom);
      waitingFrom = 0;
    }
  };
  /** Runs `work` when one of the `applyingAtOnce` places is free, in arrival order. */
  const inTurn = <T>(work: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waitingToApply.push(() => work().then(resolve, reject));
      applyNext();
    });
  /**
   * Entries being applied in this process, by id. Maintenance's `resume` reads the inbox while a
   * burst's live applications still wait their turn: it waits for those instead of applying them a
   * second time (harmless, but twice the writes, and a refused one said twice). Looked up before
   * taking a turn: a resume holding a turn while it waits for one queued behind it would never end.
   */
  const underway = new Map<string, Promise<unknown>>();
  const trackUnderway = <T>(entry: InboxEntry, applying: Promise<T>): Promise<T> => {
    underway.set(entry.id, applying);
    const settled = () => {
      if (underway.get(entry.id) === applying) underway.delete(entry.id);
    };
    applying.then(settled, settled);
    return applying;
  };
  const applyBehind = (entry: InboxEntry, notification: WebhookNotification) =>
    trackUnderway(entry, inTurn(() => applyAndLeave(entry, notification))).then(
      () => undefined,
      (error: unknown) =>
        // Still in the inbox: the next resume applies it.
        deps.log.error('service notification could not be applied; it stays in the inbox and is retried', { orderId: notification.orderId, error }),
    );
  /** One entry left by a crash or an outage: applied (true), or dropped when it cannot be read. */
  const resumeOne = async (entry: InboxEntry): Promise<boolean> => {
    let notification;
    try {
      // Verified when it arrived: read again, not re-verified (a secret rotated out since, or
      // the time spent here, must not lose a notification that was genuine when received).
      notification = readVerifiedWebhook(entry.rawBody);
    } catch (error) {
      deps.log.error('inbox entry cannot be read; dropped', { id: entry.id, error });
      await inbox.leave(entry);
      return false;
    }
    await applyAndLeave(entry, notification);
    return true;
  };

  /**
   * The service sends each notification once, so a duplicate is a proxy sending it again to this
   * process after the one it tried first cut the request (docs/deploy.md section 8): that process
   * may have kept it and died before applying it. It is applied here, a second after, rather than
   * at the next round of maintenance (30 s) or that process's restart, since the payer's page waits
   * for it. The second lets a copy this process is itself keeping (two arriving at once) be applied
   * by its own call first, whose caller reads the outcome (`handleWebhook`); applying what was
   * applied already changes nothing (see the top). Counted once, as a duplicate; one at a time per
   * notification, so a replayed body queues no second application of itself.
   */
  const duplicatesWaiting = new Set<string>();
  const applyDuplicate = (raw: Uint8Array | string, notification: WebhookNotification) => {
    const entry = inboxEntryOf(raw, notification, deps.now());
    if (underway.has(entry.id) || duplicatesWaiting.has(entry.id)) return;
    duplicatesWaiting.add(entry.id);
    void deps.background.track(
      new Promise((resolve) => setTimeout(resolve, duplicateDelayMs).unref())
        .then(() => {
          duplicatesWaiting.delete(entry.id);
          return underway.get(entry.id) ?? trackUnderway(entry, inTurn(() => applyAndLeave(entry, notification, { counting: false })));
        })
        .catch((error: unknown) => deps.log.error('a notification sent again could not be applied here; the next round of maintenance applies it', { orderId: notification.orderId, error })),
    );
  };

  const verifyAndEnter = async (raw: Uint8Array | string) => {
    const verified = await verifyNotification(deps, raw);
    if (verified.kind === 'refused') return counted(verified);
    const entered = await inbox.enter(raw, verified.notification);
    if (entered.kind === 'duplicate') applyDuplicate(raw, verified.notification);
    return entered.kind === 'entered' ? { ...entered, notification: verified.notification } : counted(entered);
  };

  return {
    async receive(raw) {
      const size = typeof raw === 'string' ? raw.length : raw.byteLength;
      if (size > maxNotificationBytes) return counted({ kind: 'too-large' } as const);
      const entered = await verifyAndEnter(raw);
      if (entered.kind !== 'entered') return entered;
      void deps.background.track(applyBehind(entered.entry, entered.notification));
      return { kind: 'kept' };
    },
    async receiveAndApply(raw) {
      const entered = await verifyAndEnter(raw);
      if (entered.kind !== 'entered') return entered;
      return trackUnderway(entered.entry, applyAndLeave(entered.entry, entered.notification));
    },
    resume,
  };

  async function resume(): Promise<number> {
    let count = 0;
    for (;;) {
      const inside = await inbox.inside(resumePage);
      // A page applied together, as live notifications are (the Postgres store batches their
      // calls): a backlog left by a crash or an outage is applied in batches, not one by one.
      // Statuses only move forward, so two of one order may be applied in either order.
      // One this process is applying already (a live one behind a burst) is waited for, not counted.
      const outcomes = await Promise.allSettled(
        inside.map((entry) => underway.get(entry.id)?.then(() => false, () => false) ?? trackUnderway(entry, inTurn(() => resumeOne(entry)))),
      );
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      count += outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value).length;
      if (inside.length < resumePage) return count;
    }
  }
}
