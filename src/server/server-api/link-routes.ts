/**
 * `<publicUrl>/server/links…` (links/): the merchant's payment links through the server API, with
 * the same secret, body checks and store deadline as every route of it; a link's refusals mapped
 * to the API's codes, each with its sentence.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { LinkError, type LinkErrorCode } from '../links/link-rules.js';
import type { LinkActions } from '../links/link-actions.js';
import { ServerApiError, type ServerApiErrorCode } from './server-api-error.js';
import { closeLinkRoute, createLinkRoute, getLinkRoute, listLinksRoute } from './link-schemas.js';

const codeOf: Record<LinkErrorCode, ServerApiErrorCode> = {
  INVALID_LINK: 'BAD_REQUEST',
  LINK_CONFLICT: 'CONFLICT',
  LINK_NOT_FOUND: 'NOT_FOUND',
  LINKS_UNAVAILABLE: 'NOT_FOUND',
};

async function answered<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof LinkError) throw new ServerApiError(codeOf[error.code], error.message);
    throw error;
  }
}

export function registerLinkRoutes(app: OpenAPIHono, links: LinkActions): void {
  app.openapi(createLinkRoute, async (c) => {
    const { created, link } = await answered(() => links.createLink(c.req.valid('json'), c.req.header('idempotency-key')));
    return c.json(link, created ? 201 : 200);
  });
  app.openapi(listLinksRoute, async (c) => c.json(await answered(() => links.listLinks(c.req.valid('query'))), 200));
  app.openapi(getLinkRoute, async (c) => c.json(await answered(() => links.getLink(c.req.valid('param').linkId)), 200));
  app.openapi(closeLinkRoute, async (c) => c.json(await answered(() => links.closeLink(c.req.valid('param').linkId)), 200));
}
