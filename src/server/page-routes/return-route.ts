/**
 * The return route: where an authorisation page sends the payer back. A browser return is never
 * proof of payment (§2.3): it marks the payment returned and sends the payer on to the shop's
 * page, which shows "confirming" until the notification decides.
 */
import type { Hono } from 'hono';
import { companionRoutes, returnOrderQueryParam, returnQueryParam } from '../../contract/companion.js';
import { hasUnusableCharacters } from '../model/id-text.js';
import { parseReturnUrl } from '../model/urls.js';
import type { AppDeps, Env } from './app-deps.js';

export function registerReturnRoute(app: Hono<Env>, deps: Pick<AppDeps, 'store' | 'markReturned' | 'log'>): void {
    app.get(`${companionRoutes.returnPrefix}:returnId`, async (c) => {
      // A payer who may just have approved a payment: whatever fails here, never a JSON error and
      // never "nothing was charged" (the webhook decides, §2.3).
      const confirming = 'Your payment is being confirmed. You can go back to the shop to see your order.';
      const returnId = c.req.param('returnId');
      // Anyone can ask for any link: one no id can be (a NUL, which PostgreSQL refuses) is answered
      // without asking the store, so it neither fails there nor writes an error line per request.
      if (hasUnusableCharacters(returnId)) return c.html(returnPage('This payment link is broken. Go back to the shop to see your order.'), 400);
      try {
        const checkout = await deps.store.getByReturnId(returnId);
        const outcome = c.req.query('outcome') === 'success' ? 'success' : 'failure';
        if (!checkout) return c.html(returnPage('This payment link is no longer valid. Go back to the shop to see your order.'), 404);
        // §2.3: a browser return is never proof of payment; the element shows "confirming" until the webhook decides.
        await deps.markReturned(checkout);
        // Checked at creation; parsed again for records written before that check existed.
        const returnUrl = parseReturnUrl(checkout.returnUrl);
        if (!returnUrl) return c.html(returnPage(confirming), 200);
        const target = new URL(returnUrl);
        target.searchParams.set(returnQueryParam, outcome);
        // With one fixed return page for every order, this is how the page knows which order came back.
        target.searchParams.set(returnOrderQueryParam, checkout.orderId);
        return c.redirect(target.toString(), 303);
      } catch (error) {
        deps.log.error('return route failed', { error });
        return c.html(returnPage(confirming), 200);
      }
    });
}

function returnPage(message: string): string {
  const escaped = message.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payment</title><p>${escaped}</p></html>`;
}
