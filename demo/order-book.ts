/**
 * The demo shop's orders, as a real shop keeps them: on the server, each one bound to the visitor
 * who placed it. A reload shows the same order (and its outcome) instead of a new one, and an order
 * id someone else typed or was sent shows nothing of it (issue 12 §11: the page carries the
 * checkout's token, which must reach no one else).
 *
 * The visitor is a random id in an HttpOnly, SameSite=Lax cookie: sent when the payer comes back
 * from an approval page (a top-level navigation), never readable by a script.
 */
import { randomBytes } from 'node:crypto';
import type { DemoOrder } from './order.js';

export const visitorCookie = 'momo_demo_visitor';

interface Entry {
  visitor: string;
  order: DemoOrder;
}

export interface OrderBook {
  /** Keeps `order` for `visitor`. */
  add(visitor: string, order: DemoOrder): void;
  /** The order, only for the visitor who placed it; undefined for anyone else or an unknown id. */
  get(visitor: string | null, orderId: string): DemoOrder | undefined;
}

/** In memory, the oldest dropped past `maxOrders`: a demo, not a shop's database. */
export function createOrderBook(maxOrders = 10_000): OrderBook {
  const entries = new Map<string, Entry>();
  return {
    add(visitor, order) {
      if (entries.size >= maxOrders) entries.delete(entries.keys().next().value!);
      entries.set(order.orderId, { visitor, order });
    },
    get(visitor, orderId) {
      const entry = entries.get(orderId);
      return visitor !== null && entry?.visitor === visitor ? entry.order : undefined;
    },
  };
}

/** 128 random bits, base64url: unguessable, and safe in a cookie value. */
export function newVisitorId(): string {
  return randomBytes(16).toString('base64url');
}

/** The visitor id from a `Cookie` header, or null when absent or not one of ours. */
export function visitorFrom(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    const value = rest.join('=');
    if (name === visitorCookie && /^[\w-]{16,64}$/.test(value)) return value;
  }
  return null;
}

/** `Set-Cookie` for a new visitor: HttpOnly, SameSite=Lax, the whole site; Secure over https. */
export function visitorSetCookie(visitor: string, secure: boolean): string {
  return `${visitorCookie}=${visitor}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
