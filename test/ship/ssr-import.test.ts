/**
 * Issue 5: importing any browser entry on a server (SSR: Next.js, Node) does not touch `window`
 * or `document` at import time. The probe runs in its own plain Node process so no test global
 * leaks into it.
 */
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const probe = fileURLToPath(new URL('./fixtures/ssr-probe.ts', import.meta.url));

interface ProbeResult {
  exportsSeen: Record<string, string[]>;
  touchedByUs: string[];
  customElements: string;
}

async function runProbe(): Promise<ProbeResult> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', probe], { cwd: root, timeout: 30_000 });
  return JSON.parse(stdout) as ProbeResult;
}

describe('browser entries imported in plain Node (SSR)', () => {
  it('import without a DOM, export the element, and read no window/document of ours', async () => {
    const result = await runProbe();
    assert.equal(result.customElements, 'undefined', 'the probe must run without a DOM');
    assert.deepEqual(result.touchedByUs, [], 'browser code read window/document at import time: move it into a method');
    assert.ok(result.exportsSeen['momo-checkout']?.includes('MomoCheckout'));
    assert.ok(result.exportsSeen['momo-checkout']?.includes('createScriptedClient'));
    assert.deepEqual(result.exportsSeen['momo-checkout/define'], ['MomoCheckout']);
    assert.deepEqual(result.exportsSeen['momo-checkout/react'], ['MomoCheckout', 'MomoCheckoutElement', 'momoCheckoutEvents']);
  });
});
