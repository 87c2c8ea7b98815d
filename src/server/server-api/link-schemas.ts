/**
 * The server API's payment-link routes as OpenAPI definitions (issue 44): the same objects validate
 * requests (link-routes.ts) and make docs/openapi.json (server-api-routes.ts `serverApiDocument`).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { hasUnusableCharacters, unusableIdReason } from '../model/id-text.js';
import { ErrorSchema, paymentStates, serverApiErrors as errors, jsonContent as json, serverApiSecurity as security } from './schema-parts.js';

const decimal = (what: string, example: string) =>
  z.string({ error: 'must be a decimal string such as "5000" or "12.50", never a JSON number (floats lose digits)' }).optional().openapi({ description: what, example });

export const CreateLinkRequestSchema = z
  .object({
    currencyCode: z.string({ error: 'must be a string such as "XOF"' }).openapi({ example: 'XOF' }),
    description: z.string({ error: 'must be a string saying what the payer pays for' }).openapi({ description: "What the payer pays for, 1 to 200 characters: on the link's page and in the card a chat app shows.", example: 'Pagne wax, 6 yards' }),
    amount: decimal('A fixed amount in the major unit, in the currency\'s decimals (never rounded). Or leave it out and give `minAmount` and `maxAmount`.', '5000'),
    minAmount: decimal('With `maxAmount`: the payer chooses an amount within these bounds (both included).', '1000'),
    maxAmount: decimal('With `minAmount`.', '50000'),
    reusable: z.boolean({ error: 'must be true or false' }).optional().openapi({ description: 'Default false: the link is closed by its first completed payment. True: it takes payments until it expires, is closed, or reaches `maxPayments`.' }),
    maxPayments: z.number({ error: 'must be a whole number' }).int().optional().openapi({ description: "A reusable link's cap on completed payments.", example: 20 }),
    expiresAt: z.string().optional().openapi({ description: 'ISO 8601; default 7 days after its creation, at most a year.', example: '2026-12-31T23:59:00Z' }),
    returnUrl: z.string().optional().openapi({ description: "Your page the payer comes back to after an approval page (default: the companion's).", example: 'https://shop.example/thanks' }),
  })
  .openapi('CreateLinkRequest');

export const LinkSchema = z
  .object({
    linkId: z.string().openapi({ description: 'Over 128 random bits (17 bytes), base64url, starting with a letter or a digit: the URL is the only key to the page.', example: 'k3Jq9sV0bT2xYw8ZrA1c4Qx' }),
    url: z.string().openapi({ description: 'The page to send the payer (WhatsApp, SMS, a QR code).', example: 'https://shop.example/momo/l/k3Jq9sV0bT2xYw8ZrA1c4Qx' }),
    state: z.enum(['open', 'closed', 'expired', 'used-up']).openapi({ description: '`used-up`: a single-use link paid, or a reusable one at `maxPayments`.' }),
    currencyCode: z.string(),
    description: z.string(),
    amount: z.string().nullable(),
    minAmount: z.string().nullable(),
    maxAmount: z.string().nullable(),
    reusable: z.boolean(),
    maxPayments: z.number().int().nullable(),
    completedPayments: z.number().int(),
    returnUrl: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
    closedAt: z.string().nullable(),
  })
  .openapi('Link');

const LinkPaymentSchema = z
  .object({
    orderId: z.string().openapi({ description: "The payment's own order id, `<linkId>-<t>-<n>` (`t`: the link's creation time in base 36, so that a link created again under a forgotten link's Idempotency-Key never meets its orders): read it, refund it and find it in the export like any other.", example: 'k3Jq9sV0bT2xYw8ZrA1c4Qx-mhx0q9k0-1' }),
    amount: z.string(),
    state: z.enum(paymentStates),
    updatedAt: z.string(),
  })
  .openapi('LinkPayment');

export const LinkDetailsSchema = LinkSchema.extend({ payments: z.array(LinkPaymentSchema) }).openapi('LinkDetails');

export const LinkPathParams = z.object({
  linkId: z
    .string()
    .refine((linkId) => !hasUnusableCharacters(linkId), unusableIdReason('link id'))
    .openapi({ param: { name: 'linkId', in: 'path' }, example: 'k3Jq9sV0bT2xYw8ZrA1c4Qx' }),
});

const LinkListQuerySchema = z.object({
  limit: z.coerce.number({ error: 'must be a whole number from 1 to 200' }).int().min(1).max(200).optional().openapi({ description: 'Default 50.', example: 50 }),
  before: z.string().optional().openapi({ description: 'The `next` of the previous page.' }),
});

const notFound = json(ErrorSchema, '`NOT_FOUND`: no link with this id (a link is forgotten 35 days after its expiry).');

export const createLinkRoute = createRoute({
  method: 'post',
  path: '/links',
  summary: 'Create a payment link',
  description:
    'A page the payer opens from WhatsApp, SMS or a QR code, to pay a fixed amount or one they choose within bounds. Each payment through it is an ordinary payment under its own order id, `<linkId>-<t>-<n>`, notified to your endpoint with `linkId`. Send an `Idempotency-Key` header to make a retry safe: the same key gives the same link (`200`), another body with it is a `409`.',
  security,
  request: {
    headers: z.object({ 'idempotency-key': z.string().optional().openapi({ description: '1 to 255 printable ASCII characters; a UUID is a good one.' }) }),
    body: { required: true, content: { 'application/json': { schema: CreateLinkRequestSchema } } },
  },
  responses: {
    201: json(LinkSchema, 'The link, created.'),
    200: json(LinkSchema, 'The link this Idempotency-Key already created.'),
    ...errors,
    409: json(ErrorSchema, '`CONFLICT`: this Idempotency-Key already created a link with other fields.'),
  },
});

export const listLinksRoute = createRoute({
  method: 'get',
  path: '/links',
  summary: 'List payment links, the newest first',
  security,
  request: { query: LinkListQuerySchema },
  responses: {
    200: json(z.object({ links: z.array(LinkSchema), next: z.string().nullable().openapi({ description: 'Give it as `before` for the next page; null on the last one.' }) }).openapi('LinkList'), 'A page of links.'),
    ...errors,
  },
});

export const getLinkRoute = createRoute({
  method: 'get',
  path: '/links/{linkId}',
  summary: 'Read a payment link with the payments made through it',
  security,
  request: { params: LinkPathParams },
  responses: { 200: json(LinkDetailsSchema, 'The link and its payments, the oldest first.'), ...errors, 404: notFound },
});

export const closeLinkRoute = createRoute({
  method: 'post',
  path: '/links/{linkId}/close',
  summary: 'Close a payment link: no payment starts through it any more',
  description: 'A payment already started through it goes on to its end. Closing twice is the same as once.',
  security,
  request: { params: LinkPathParams },
  responses: { 200: json(LinkSchema, 'The link, closed.'), ...errors, 404: notFound },
});

export const linkRoutes = [createLinkRoute, listLinksRoute, getLinkRoute, closeLinkRoute];
