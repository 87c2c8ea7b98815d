/**
 * Issue 41: `npm start` warned "NODE_ENV=production with a memory store ... Remove MOMO_STORE=memory"
 * though the merchant set neither: Vite's in-process build set NODE_ENV for the whole process, and
 * the sentence named a variable the demo never read. The demo now leaves NODE_ENV as it found it,
 * and the warning names how the memory store was chosen.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startDemo } from '../../demo/start-demo.js';
import { storeRisk } from '../../src/server/stores/store-from-env.js';
import type { Logger } from '../../src/server/log.js';

it('starts the demo (building its bundle) without setting NODE_ENV, and the companion warns of nothing about its store', async () => {
  delete process.env.NODE_ENV;
  const warnings: string[] = [];
  const collect = (level: string) => (message: string) => void (level === 'warn' && warnings.push(message));
  const companionLog = { debug: collect('debug'), info: collect('info'), warn: collect('warn'), error: collect('error') };
  const demo = await startDemo({ port: 0, log: () => {}, companionLog: companionLog satisfies Logger });
  try {
    assert.equal(process.env.NODE_ENV, undefined, 'the bundle build left NODE_ENV unset');
    assert.deepEqual(warnings.filter((line) => line.includes('store')), []);
  } finally {
    await demo.close();
  }
});

it('names the memory store as it was chosen: MOMO_STORE=memory, or a store passed in code', () => {
  assert.match(storeRisk('memory', { NODE_ENV: 'production', MOMO_STORE: 'memory' })!, /Remove MOMO_STORE=memory/);
  const inCode = storeRisk('memory', { NODE_ENV: 'production' })!;
  assert.doesNotMatch(inCode, /MOMO_STORE/);
  assert.match(inCode, /createMemoryStore/);
});
