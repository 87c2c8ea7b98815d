/**
 * The one constant-time comparison of the project: a signature, a token or a secret's digest
 * compared without an early exit, so the time taken never tells how many leading characters
 * matched. Lengths are compared first and may show: every caller compares values of a public,
 * fixed length (hex or base64 of one HMAC or hash), or hashes both sides first.
 *
 * Plain TypeScript, no `node:crypto`: the companion (on every runtime), the console's sessions,
 * the webhook verification and the sandbox all use it.
 */
export function constantTimeEqual(a: string, b: string): boolean;
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean;
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (a.length !== b.length) return false;
  const at = (value: string | Uint8Array, index: number) => (typeof value === 'string' ? value.charCodeAt(index) : value[index]!);
  let difference = typeof a === typeof b ? 0 : 1;
  for (let index = 0; index < a.length; index++) difference |= at(a, index) ^ at(b, index);
  return difference === 0;
}
