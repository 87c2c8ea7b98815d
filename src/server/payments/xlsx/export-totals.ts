/**
 * The export's totals per currency (issue 55: a column sum of `amount` counted a pending payment as
 * received): what completed payments brought in, less what went back in completed refunds. Summed
 * from the stored decimal strings in minor units (bigint), never in floats, as the rows stream by:
 * the totals hold one entry per currency, not the rows.
 */
import { fromMinorUnits, toMinorUnits } from '../../../contract/money.js';
import { heldForSupport } from '../../model/payment-view.js';
import type { Paid } from '../payments-export.js';
import { refundedAmount, refundPendingAmount } from '../payments-export.js';

/** One currency's figures, amounts as canonical decimal strings (`net` may be negative only if the store is wrong). */
export interface CurrencyTotals {
  currency: string;
  /** Payments in `completed`, not held for support: the money received. */
  completed: number;
  received: string;
  /** Completed refunds of those payments. */
  refunded: string;
  /** received − refunded. */
  net: string;
  /** Refunds sent or sending without an outcome yet (not subtracted). */
  refundPending: string;
  /** Completed payments held for support (another amount or number than asked): never counted as paid. */
  held: number;
  /** Payments in any other state (pending, failed, ...): listed, not counted. */
  notCompleted: number;
}

const fractionLength = (amount: string) => (amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0);

/** Sums kept in minor units at the largest scale seen, so amounts of any precision add exactly. */
class Sum {
  private minor = 0n;
  private scale = 0;
  add(amount: string, sign: 1n | -1n = 1n): void {
    const places = fractionLength(amount);
    if (places > this.scale) {
      this.minor *= 10n ** BigInt(places - this.scale);
      this.scale = places;
    }
    this.minor += sign * toMinorUnits(amount, this.scale);
  }
  toString(): string {
    return fromMinorUnits(this.minor, this.scale);
  }
}

interface Running {
  completed: number;
  received: Sum;
  refunded: Sum;
  net: Sum;
  refundPending: Sum;
  held: number;
  notCompleted: number;
}

/** Totals added up a row at a time; `result()` lists the currencies in the order they first came. */
export class ExportTotals {
  private readonly byCurrency = new Map<string, Running>();

  add(record: Paid): void {
    let running = this.byCurrency.get(record.currencyCode);
    if (!running) {
      running = { completed: 0, received: new Sum(), refunded: new Sum(), net: new Sum(), refundPending: new Sum(), held: 0, notCompleted: 0 };
      this.byCurrency.set(record.currencyCode, running);
    }
    if (record.payment.state !== 'completed') {
      running.notCompleted++;
      return;
    }
    if (heldForSupport(record.payment)) {
      running.held++;
      return;
    }
    running.completed++;
    running.received.add(record.amount);
    running.net.add(record.amount);
    const refunded = refundedAmount(record);
    running.refunded.add(refunded);
    running.net.add(refunded, -1n);
    running.refundPending.add(refundPendingAmount(record));
  }

  result(): CurrencyTotals[] {
    return [...this.byCurrency].map(([currency, running]) => ({
      currency,
      completed: running.completed,
      received: String(running.received),
      refunded: String(running.refunded),
      net: String(running.net),
      refundPending: String(running.refundPending),
      held: running.held,
      notCompleted: running.notCompleted,
    }));
  }
}
