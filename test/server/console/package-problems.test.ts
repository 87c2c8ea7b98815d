/**
 * Issue 41: a released script-tag file missing from the installed package is said where the
 * merchant looks, the console's overview included, before a payer meets a 404. The overview reads
 * the same check as `serve` and `doctor` (setup/element-files-check.ts), on a folder laid out as a
 * built package's `dist/browser/` with one file listed and absent.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import type { ConsoleOverview } from '../../../src/contract/console.js';
import { registerConsoleApi } from '../../../src/server/console/console-api.js';
import { createConsoleSessions, type SignedSession } from '../../../src/server/console/console-session.js';
import { silentLogger } from '../../../src/server/log.js';
import { createMemoryStore } from '../../../src/server/stores/memory/memory-store.js';

async function overviewWith(elementFilesDir: string): Promise<ConsoleOverview> {
  const app = new Hono<{ Variables: { session: SignedSession }; Bindings: { clientAddress: string | undefined } }>();
  registerConsoleApi(app, {
    store: createMemoryStore(),
    now: () => Date.now(),
    staleAfterMinutes: 15,
    refunds: false,
    refund: () => Promise.reject(new Error('no refund in this test')),
    sessions: createConsoleSessions({ secrets: ['a-secret-of-enough-length'], ttlMs: 60_000, now: () => Date.now() }),
    elementFilesDir,
    log: silentLogger,
  });
  const answer = await app.request('/api/overview');
  assert.equal(answer.status, 200);
  return (await answer.json()) as ConsoleOverview;
}

describe("the console's overview and the package's released script-tag files", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-console-files-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('names a released file the package lacks, with what a page meets and what to do', async () => {
    const released = [{ file: 'momo-checkout-0.1.0.js', integrity: 'sha384-JwptCHkpGd/Vb3V8dQVltLiTtblcYuDx/9ZABLD+K39nC2fuwNDeuuo3t1NrtnpQ', bytes: 70642 }];
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ released }));
    const overview = await overviewWith(dir);
    assert.equal(overview.packageProblems.length, 1);
    assert.match(overview.packageProblems[0]!, /^momo-checkout-0\.1\.0\.js is missing .*shows no checkout\. Reinstall momo-checkout/);
  });

  it('says nothing when the package holds what it lists', async () => {
    assert.deepEqual((await overviewWith(join(dir, 'never-built'))).packageProblems, []);
  });
});
