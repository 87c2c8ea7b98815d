/**
 * Reads a JSON request body twice: `JSON.parse` for the values, and parseRawJsonObject for the
 * exact text of `amount` (§2.1: decimals are counted on what was written, `5000.0` is not `5000`).
 */
import { parseRawJsonObject } from '../contract/webhook-signature/index.js';

export type BodyResult =
  | { ok: true; body: Record<string, unknown>; rawAmount: string | undefined }
  | { ok: false; message: string };

export async function readJsonBody(request: Request): Promise<BodyResult> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, message: 'the body must be valid JSON (Content-Type: application/json)' };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, message: 'the body must be a JSON object' };
  }
  let rawAmount: string | undefined;
  try {
    const entries = parseRawJsonObject(text, { maxDepth: 16, maxBytes: 1_000_000 });
    rawAmount = entries.find((entry) => entry.path === 'amount' && entry.kind === 'number')?.raw;
  } catch (error) {
    // Sandbox limitation: the raw reader refuses arrays and duplicate keys, which the real
    // service's parser may accept (e.g. an array in customerId). Say so rather than guess.
    return {
      ok: false,
      message: `the sandbox could not read the body's raw text (${error instanceof Error ? error.message : String(error)}); avoid arrays and duplicate keys in the body`,
    };
  }
  return { ok: true, body: body as Record<string, unknown>, rawAmount };
}
