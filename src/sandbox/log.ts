/** Log helpers: every line `sandbox:`-prefixed, numbers redacted (never a secret, key or OTP). */

/** Keeps `+`, the first three digits (a calling code's longest length) and the last two. */
export function redactPhone(phone: string): string {
  if (!/^\+[0-9]{6,15}$/.test(phone)) return '••••';
  return `${phone.slice(0, 4)}${'•'.repeat(phone.length - 6)}${phone.slice(-2)}`;
}

export type Logger = (line: string) => void;

export function prefixed(log: (line: string) => void): Logger {
  return (line) => log(`sandbox: ${line}`);
}
