/**
 * The overlay wallet's payer-facing page (redirect_url workflow): `nextAction.authorizationUrl`
 * points here. A plain HTML form, clearly the sandbox's, so it works in any browser and in tests
 * without script. After the click: 303 to the merchant's return URL and the final webhook.
 */
import type { Hono } from 'hono';
import type { SandboxCore, TransactionRecord } from '../core.js';
import { redactPhone } from '../log.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Sandbox wallet</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;padding:24px;max-width:380px;width:100%;box-shadow:0 2px 12px #0002}
.banner{background:#fff4ce;border:1px solid #e0b400;border-radius:8px;padding:8px 12px;font-size:14px}
.amount{font-size:32px;font-weight:700;margin:16px 0 4px}
form{display:flex;gap:12px;margin-top:20px}
button{flex:1;font-size:16px;padding:12px;border-radius:8px;border:0;cursor:pointer}
.approve{background:#127a3b;color:#fff}.decline{background:#b3261e;color:#fff}
</style></head><body><main>
<p class="banner"><strong>SANDBOX</strong>: a local simulator. No real money moves and no phone is contacted.</p>
${body}
</main></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

function orderSummary(record: TransactionRecord): string {
  return `<p class="amount">${escapeHtml(record.amount)} ${escapeHtml(record.currencyCode)}</p>
<p>Order <code>${escapeHtml(record.orderId)}</code>, wallet account ${escapeHtml(redactPhone(record.phoneNumber))}</p>`;
}

export function registerAuthorize(app: Hono, core: SandboxCore): void {
  app.get('/authorize/:transactionId', (c) => {
    const record = core.getByTransactionId(c.req.param('transactionId'));
    if (!record || record.workflow !== 'redirect_url') return page('Not found', '<h1>Unknown payment</h1><p>This authorisation link matches no sandbox payment.</p>', 404);
    if (record.status !== 'pending') {
      return page('Already answered', `<h1>Payment already ${escapeHtml(record.status)}</h1>${orderSummary(record)}`);
    }
    // The form posts to this page's own address (a relative action): the page may be served under
    // a prefix, as `serve --sandbox` does behind a proxy (`<public URL>/authorize/...`).
    return page(
      'Approve payment',
      `<h1>Approve this payment?</h1>${orderSummary(record)}
<form method="post" action="${encodeURIComponent(record.transactionId)}">
<button class="approve" type="submit" name="decision" value="approve">Approve</button>
<button class="decline" type="submit" name="decision" value="decline">Decline</button>
</form>`,
    );
  });

  app.post('/authorize/:transactionId', async (c) => {
    const record = core.getByTransactionId(c.req.param('transactionId'));
    if (!record || record.workflow !== 'redirect_url') return page('Not found', '<h1>Unknown payment</h1>', 404);
    const form = await c.req.parseBody();
    const decision = form.decision;
    if (decision !== 'approve' && decision !== 'decline') {
      return page('Choose', '<h1>Choose Approve or Decline</h1>', 400);
    }
    if (record.status !== 'pending') {
      return page('Already answered', `<h1>Payment already ${escapeHtml(record.status)}</h1>${orderSummary(record)}`, 409);
    }
    const status = decision === 'approve' ? 'completed' : 'failed';
    // The webhook is sent without holding the browser: the return URL is no proof of payment (§2.3).
    void core.settle(record, status).catch((error: unknown) => core.log(`authorize ${record.orderId}: ${String(error)}`));
    const target = status === 'completed' ? record.redirectUrls?.success : record.redirectUrls?.failure;
    if (!target) return page('Done', `<h1>Payment ${status}</h1>`);
    return new Response(null, { status: 303, headers: { location: target } });
  });
}
