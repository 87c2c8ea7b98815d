/**
 * The xlsx export streams with flat memory (issue 55's "done when"): 100,000 payments in a file
 * store, exported for a tenth of the window and for all of it, the file read as it comes and thrown
 * away. What the export holds is measured live: after a full GC every 4 chunks (2,000 rows), the
 * JS heap plus the array buffers (fflate's deflate window, the page's bytes) above the level before
 * the export (a second GC after a turn of the event loop: the first leaves freed buffers counted). Ten times the rows must not hold more than half as much again: a writer that kept the
 * file (9.6 MB compressed) or its XML (71 MB) until the end would hold several times as much. The
 * CSV's figures are printed beside it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { csvEncoder, paymentsExportStream, type ExportEncoder } from '../../../src/server/payments/export-stream.js';
import type { ExportWindow } from '../../../src/server/payments/export-window.js';
import { xlsxEncoder } from '../../../src/server/payments/xlsx/xlsx-export.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import type { CheckoutStore } from '../../../src/server/stores/store.js';
import { exportRecords } from '../../support/export-records.js';
import { seedFileStore } from '../../support/seed-records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const payments = 100_000;
const start = Date.UTC(2025, 9, 1);
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
const held = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

/** Live memory: what a full GC leaves, once the buffers it freed are off the books. */
async function settled(): Promise<number> {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return held();
}

/** The most the export of `window` held at once above its start (bytes), and the file's size. */
async function exportHolds(store: CheckoutStore, window: ExportWindow, encoder: ExportEncoder): Promise<{ peak: number; bytes: number }> {
  const base = await settled();
  let peak = 0;
  let bytes = 0;
  let chunks = 0;
  const reader = (await paymentsExportStream(store, window, encoder)).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    if (++chunks % 4 === 0) peak = Math.max(peak, (await settled()) - base);
  }
  return { peak, bytes };
}

describe('the xlsx export of 100,000 payments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'momo-xlsx-memory-'));
  const path = join(dir, 'store.sqlite');
  let store: CheckoutStore;
  before(async () => {
    await createFileStore({ path }).close?.();
    seedFileStore(path, exportRecords('xlsx-memory', payments, start));
    store = createFileStore({ path });
  });
  after(async () => {
    await store?.close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds about as much for 100,000 payments as for 10,000', { timeout: 600_000 }, async (t) => {
    const tenth = { from: start, to: start + (payments / 10) * 1_000 };
    const whole = { from: start, to: start + payments * 1_000 };
    const small = await exportHolds(store, tenth, xlsxEncoder(tenth));
    const large = await exportHolds(store, whole, xlsxEncoder(whole));
    t.diagnostic(`xlsx: ${mb(small.bytes)} / ${mb(large.bytes)} MB written, ${mb(small.peak)} / ${mb(large.peak)} MB held at most (heap + array buffers), 10,000 / 100,000 payments`);
    const csvSmall = await exportHolds(store, tenth, csvEncoder());
    const csvLarge = await exportHolds(store, whole, csvEncoder());
    t.diagnostic(`csv:  ${mb(csvSmall.bytes)} / ${mb(csvLarge.bytes)} MB written, ${mb(csvSmall.peak)} / ${mb(csvLarge.peak)} MB held at most`);
    assert.ok(large.bytes > 8 * small.bytes, 'the whole window is ten times the rows');
    assert.ok(large.peak < 1.5 * small.peak, `100,000 payments held ${mb(large.peak)} MB, 10,000 held ${mb(small.peak)} MB: memory grows with the window`);
  });
});
