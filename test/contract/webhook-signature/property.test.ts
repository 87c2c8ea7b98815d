/**
 * Property: a signed body verifies, and changing any one character of it (outside insignificant
 * whitespace, of which signWebhook writes none) makes verification fail.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { signWebhook, verifyWebhook } from '../../../src/contract/webhook-signature/index.js';
import { now, SECRET } from './helpers.js';

const options = { secrets: [SECRET], now };

const fieldsArbitrary = fc.record({
  phoneNumber: fc.string({ minLength: 1, maxLength: 16 }),
  amount: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.double({ min: 0, max: 1e9, noNaN: true })),
  orderId: fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }),
  status: fc.oneof(fc.constantFrom('pending', 'completed', 'failed'), fc.string({ minLength: 1, maxLength: 12 })),
});

async function verifies(body: string): Promise<boolean> {
  try {
    await verifyWebhook(body, options);
    return true;
  } catch {
    return false;
  }
}

/** A different character at `index`: another printable ASCII character, or a non-ASCII one. */
function mutate(body: string, index: number, replacement: string): string {
  const original = body.charAt(index);
  const other = replacement === original ? (original === 'a' ? 'b' : 'a') : replacement;
  return body.slice(0, index) + other + body.slice(index + 1);
}

describe('signed bodies (property)', () => {
  it('verify, and no longer verify once any one character changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fieldsArbitrary,
        fc.nat(),
        fc.oneof(
          fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
          fc.constantFrom(' ', '"', '\\', '0', '9', 'é', '\ufffd', '😀'.charAt(0)),
        ),
        async (fields, position, replacement) => {
          const body = await signWebhook(fields, SECRET, { now });
          assert.equal(await verifies(body), true);
          const mutated = mutate(body, position % body.length, replacement);
          assert.equal(await verifies(mutated), false, `verified after a change: ${mutated}`);
        },
      ),
      { numRuns: 300, seed: 20250615 },
    );
  });
});
