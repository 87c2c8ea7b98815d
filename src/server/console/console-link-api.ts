/**
 * The console's payment-link routes under `console/api/links` (issue 44), behind the session and
 * CSRF checks of console-routes.ts. Every rule is the server API's: the same link actions
 * (links/link-actions.ts) create, list, read and close; a LinkError becomes the console's refusal
 * with the sentence the actions wrote, nothing rewritten here. The answers are checked against the
 * page's types (contract/console.ts) at build time, so the two shapes cannot drift apart. A link read or made comes with its
 * address as a QR code, encoded on the companion by the approval page's encoder
 * (page-routes/approval-qr.ts, given by operator-routes.ts), so the console's script carries none.
 */
import type { Hono } from 'hono';
import type { ApprovalQrView } from '../../contract/companion.js';
import type { ConsoleLinkCurrency, ConsoleLinkDetail, ConsoleLinkList, ConsoleNewLink } from '../../contract/console.js';
import type { LinkActions } from '../links/link-actions.js';
import { LinkError, type LinkErrorCode, type LinkRequest } from '../links/link-rules.js';
import { hasUnusableCharacters, unusableIdReason } from '../model/id-text.js';
import type { CheckoutStore } from '../stores/store.js';
import { consoleRefusal, type ConsoleRefusalCode } from './console-refusal.js';
import type { SignedSession } from './console-session.js';

const refusalOf: Record<LinkErrorCode, ConsoleRefusalCode> = {
  INVALID_LINK: 'BAD_REQUEST',
  LINK_CONFLICT: 'CONFLICT',
  LINK_NOT_FOUND: 'NOT_FOUND',
  LINKS_UNAVAILABLE: 'NOT_FOUND',
};

/** The fields the console's form may send: the server API's body, nothing else. */
const requestFields = ['currencyCode', 'description', 'amount', 'minAmount', 'maxAmount', 'reusable', 'maxPayments', 'expiresAt', 'returnUrl'] as const;

export interface ConsoleLinkDeps {
  actions: LinkActions;
  /** A URL as a QR code's modules. */
  qrOf(url: string): ApprovalQrView;
}

export function registerConsoleLinkApi(app: Hono<{ Variables: { session: SignedSession }; Bindings: { clientAddress: string | undefined } }>, { actions: links, qrOf }: ConsoleLinkDeps, store: CheckoutStore): void {
  const answered = async <T>(action: () => Promise<T>) => {
    try {
      return { ok: true as const, value: await action() };
    } catch (error) {
      if (error instanceof LinkError) return { ok: false as const, refusal: consoleRefusal(refusalOf[error.code], error.message) };
      throw error;
    }
  };

  app.use('/api/links/:linkId/*', async function usableLinkId(c, next) {
    if (hasUnusableCharacters(c.req.param('linkId') ?? '')) return c.json(...consoleRefusal('BAD_REQUEST', `The link id ${unusableIdReason('link id')}.`));
    await next();
  });

  // The currency the form offers, so that a link takes two fields: the shop's, as its newest link or
  // else its newest payment says it (one read from each index); null for a shop with neither yet.
  app.get('/api/links/currency', async (c) => {
    const page = await answered(() => links.listLinks({ limit: 1 }));
    const fromLink = page.ok ? page.value.links[0]?.currencyCode : undefined;
    const fromPayment = fromLink ? undefined : (await store.listPayments({ newestFirst: true, limit: 1 }))[0]?.currencyCode;
    const body: ConsoleLinkCurrency = { currencyCode: fromLink ?? fromPayment ?? null };
    return c.json(body);
  });

  app.get('/api/links', async (c) => {
    const limit = Number(c.req.query('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) return c.json(...consoleRefusal('BAD_REQUEST', 'limit must be a whole number from 1 to 200.'));
    const before = c.req.query('before');
    const page = await answered(() => links.listLinks({ limit, ...(before ? { before } : {}) }));
    return page.ok ? c.json(page.value satisfies ConsoleLinkList) : c.json(...page.refusal);
  });

  app.post('/api/links', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return c.json(...consoleRefusal('BAD_REQUEST', 'Send the link as JSON: { "currencyCode": "XOF", "description": "...", "amount": "5000" }.'));
    }
    const request = Object.fromEntries(requestFields.filter((field) => body[field] !== undefined && body[field] !== '').map((field) => [field, body[field]])) as unknown as LinkRequest;
    const created = await answered(() => links.createLink(request));
    return created.ok ? c.json({ ...created.value.link, qr: qrOf(created.value.link.url) } satisfies ConsoleNewLink, 201) : c.json(...created.refusal);
  });

  app.get('/api/links/:linkId', async (c) => {
    if (hasUnusableCharacters(c.req.param('linkId'))) return c.json(...consoleRefusal('BAD_REQUEST', `The link id ${unusableIdReason('link id')}.`));
    const link = await answered(() => links.getLink(c.req.param('linkId')));
    return link.ok ? c.json({ ...link.value, qr: qrOf(link.value.url) } satisfies ConsoleLinkDetail) : c.json(...link.refusal);
  });

  app.post('/api/links/:linkId/close', async (c) => {
    const link = await answered(() => links.closeLink(c.req.param('linkId')));
    return link.ok ? c.json(link.value) : c.json(...link.refusal);
  });
}
