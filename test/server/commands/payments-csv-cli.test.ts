/**
 * `npx momo-checkout payments --csv` (or `--xlsx`, issue 55): the accountant's export from the
 * command line (issue 44), from the file store the environment names, and from the running
 * companion's server API (`--url`), to standard output or a file; a bad window is a usage error
 * saying what to give.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { paymentsCsvCommand } from '../../../src/server/commands/payments-csv.js';
import { createFileStore } from '../../../src/server/stores/sqlite/sqlite-store.js';
import { exportRecords } from '../../support/export-records.js';
import { startHarness } from '../harness.js';

const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
const serverSecret = 'cli-export-secret-0123456789abcdef012345';

describe('momo-checkout payments --csv', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-cli-csv-'));
  const records = exportRecords('cli-csv', 30, Date.UTC(2025, 10, 3));
  before(async () => {
    const store = createFileStore({ dataDir });
    for (const record of records) await store.createIfAbsent(record);
    await store.close?.();
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes the window from the store to standard output, or to a file', () => {
    const printed = cli(['payments', '--csv', '--from', '2025-11-01', '--to', '2025-12-01'], { MOMO_DATA_DIR: dataDir });
    assert.equal(printed.status, 0, printed.stderr);
    assert.ok(printed.stdout.startsWith('\uFEFF"created_at","finished_at","order_id"'));
    assert.equal(printed.stdout.split('\r\n').length - 2, records.length, 'one row per payment');
    const file = join(dataDir, 'november.csv');
    const written = cli(['payments', '--csv', '--from', '2025-11-01', '--to', '2025-12-01', '--output', file], { MOMO_DATA_DIR: dataDir });
    assert.equal(written.status, 0, written.stderr);
    assert.match(written.stdout, /Wrote the payments export to .*november\.csv/);
    assert.equal(readFileSync(file, 'utf8'), printed.stdout);
  });

  it('writes the xlsx workbook with --xlsx, from the store or through the server API, the same', async () => {
    const file = join(dataDir, 'november.xlsx');
    const written = cli(['payments', '--xlsx', '--from', '2025-11-01', '--to', '2025-12-01', '--output', file], { MOMO_DATA_DIR: dataDir });
    assert.equal(written.status, 0, written.stderr);
    assert.match(written.stdout, /Wrote the payments export to .*november\.xlsx/);
    const parts = unzipSync(readFileSync(file));
    const payments = strFromU8(parts['xl/worksheets/payments1.xml']!);
    assert.equal(payments.match(/<row /g)?.length, records.length + 1, 'a header and one row per payment');
    assert.match(strFromU8(parts['xl/worksheets/totals.xml']!), /<t>XOF<\/t>/);
    const h = await startHarness({ serverSecret, store: createFileStore({ dataDir }), setupChecksAtStart: false });
    try {
      const viaApi = join(dataDir, 'november-api.xlsx');
      const lines: string[] = [];
      const code = await paymentsCsvCommand({ from: '2025-11-01', to: '2025-12-01', url: `${h.base}/server`, output: viaApi, xlsx: true }, { MOMO_SERVER_SECRET: serverSecret }, (line) => lines.push(line));
      assert.equal(code, 0, lines.join('\n'));
      const fromApi = unzipSync(readFileSync(viaApi));
      assert.deepEqual(Object.keys(fromApi), Object.keys(parts));
      for (const [name, data] of Object.entries(parts)) assert.equal(strFromU8(fromApi[name]!), strFromU8(data), `${name}: the same through the server API as from the store`);
    } finally {
      await h.close();
    }
    const both = cli(['payments', '--csv', '--xlsx'], { MOMO_DATA_DIR: dataDir });
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--csv or --xlsx: the export is one file/);
  });

  it('refuses a window it cannot read, saying what to give', () => {
    const refused = cli(['payments', '--csv', '--from', 'yesterday'], { MOMO_DATA_DIR: dataDir });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /from must be a UTC time in ISO 8601, e\.g\. --from 2026-11-01T00:00:00Z, or a date, --from 2026-11-01 \(midnight UTC\); got "yesterday"/);
  });

  it('asks the running companion with --url, and says its refusal', async () => {
    const h = await startHarness({ serverSecret, store: createFileStore({ dataDir }), setupChecksAtStart: false });
    try {
      const chunks: Buffer[] = [];
      const stdout = new Writable({ write: (chunk, _encoding, done) => (chunks.push(chunk), done()) });
      const lines: string[] = [];
      const env = { MOMO_SERVER_SECRET: serverSecret };
      const code = await paymentsCsvCommand({ from: '2025-11-01', to: '2025-12-01', url: `${h.base}/server` }, env, (line) => lines.push(line), stdout);
      assert.equal(code, 0, lines.join('\n'));
      const direct = cli(['payments', '--csv', '--from', '2025-11-01', '--to', '2025-12-01'], { MOMO_DATA_DIR: dataDir });
      assert.equal(Buffer.concat(chunks).toString('utf8'), direct.stdout, 'the same file through the server API as from the store');
      const refused = await paymentsCsvCommand({ from: '2025-12-01', to: '2025-11-01', url: `${h.base}/server` }, env, (line) => lines.push(line), stdout);
      assert.equal(refused, 1);
      assert.match(lines.at(-1)!, /^FAIL {2}the companion answered HTTP 400 .*: from \(2025-12-01T00:00:00\.000Z\) must be before to/);
    } finally {
      await h.close();
    }
  });
});
