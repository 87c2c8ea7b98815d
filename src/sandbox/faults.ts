/**
 * Injected transport faults, to test what a caller does with an unknown outcome (assumptions.md:
 * a 5xx, a proxy's HTML page or a cut connection may or may not have created the pay-in).
 */
import type { Fault, FaultKind } from './types.js';

interface ArmedFault {
  kind: FaultKind;
  path: string | undefined;
  remaining: number;
}

export class FaultPlan {
  private armed: ArmedFault[] = [];

  add(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError(`sandbox: fault times must be a positive integer (got ${times})`);
    this.armed.push({ kind: fault.kind, path: fault.path, remaining: times });
  }

  /** The fault that hits this request, consumed; only service paths (`/v1/...`) are hit. */
  take(pathname: string): FaultKind | undefined {
    if (!pathname.startsWith('/v1/')) return undefined;
    const fault = this.armed.find((entry) => entry.path === undefined || entry.path === pathname);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.armed = this.armed.filter((entry) => entry !== fault);
    return fault.kind;
  }

  clear(): void {
    this.armed = [];
  }
}

export const faultKinds: readonly FaultKind[] = ['status-500', 'hang', 'reset', 'lost-answer'];

/** What a proxy in front of a failing service answers: HTML, not the JSON envelope. */
export function internalErrorPage(): Response {
  return new Response(
    '<!doctype html><html><head><title>500 Internal Server Error</title></head><body><h1>500 Internal Server Error</h1><p>sandbox: injected fault</p></body></html>',
    { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' } },
  );
}

/** Thrown (or used to reject `sandbox.fetch`) where a real connection would be cut. */
export class ConnectionResetError extends TypeError {
  constructor(detail: string) {
    super(`fetch failed: the connection was reset (sandbox: injected ${detail} fault)`);
    this.name = 'TypeError';
  }
}
