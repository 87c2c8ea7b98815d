/**
 * The accountant's export through the server API (issue 44): `GET <serverUrl>/payments` with
 * `Accept: text/csv` streams RFC 4180 CSV of the payments created in a window, with a BOM, CRLF,
 * quotes doubled, formula-looking text neutralised and amounts as plain numbers; the JSON list is
 * unchanged without that Accept; a bad window is refused with what to send; the file is read from
 * the store a page at a time and only as fast as the reader takes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { paymentsCsvStream } from '../../../src/server/payments/export-stream.js';
import { exportColumns } from '../../../src/server/payments/payments-export.js';
import { xlsxContentType } from '../../../src/server/payments/xlsx/xlsx-parts.js';
import { createMemoryStore } from '../../../src/server/stores/memory/memory-store.js';
import type { CheckoutStore, CreatedPaymentsPage } from '../../../src/server/stores/store.js';
import { exportRecords, trickyOrderIds } from '../../support/export-records.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'export-secret-0123456789abcdef0123456789';
// Not this month: the default window (this month so far) must not hold them.
const november = Date.UTC(2025, 10, 1);

/** RFC 4180 records of `text` (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') row.push(cell), (cell = '');
    else if (char === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += char;
  }
  assert.equal(cell + row.join(''), '', 'the file ends with CRLF');
  return rows;
}

describe('GET <serverUrl>/payments as CSV', () => {
  let h: Harness;
  const store = createMemoryStore();
  const records = exportRecords('api-export', 60, november + 3_600_000);
  before(async () => {
    for (const record of records) await store.createIfAbsent(record);
    // One in October and one without a payment: neither is in November's file.
    await store.createIfAbsent(exportRecords('october', 8, november - 86_400_000)[7]!);
    await store.createIfAbsent({ ...records[20]!, orderId: 'unpaid-1', tokenHash: 'unpaid-hash', returnId: 'unpaid-return', payment: null });
    h = await startHarness({ serverSecret, store, setupChecksAtStart: false });
  });
  after(async () => {
    await h?.close();
  });

  const get = (query: string, accept = 'text/csv', secret = serverSecret) =>
    fetch(`${h.base}/server/payments${query}`, { headers: { authorization: `Bearer ${secret}`, accept } });

  it('streams the window as RFC 4180 CSV in UTF-8 with a BOM, one row per payment, the oldest first', async () => {
    const response = await get('?from=2025-11-01&to=2025-12-01');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/csv; charset=utf-8/);
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="payments-2025-11-01-2025-12-01.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark first');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
    assert.ok(!/[^\r]\n/.test(text), 'every line ends with CRLF');
    const [header, ...rows] = parseCsv(text);
    assert.deepEqual(header, exportColumns.map(([name]) => name));
    const column = (name: string) => header!.indexOf(name);
    assert.equal(rows.length, records.length, 'every payment created in November, none from October, no checkout without a payment');
    const created = rows.map((row) => row[column('created_at')]!);
    assert.deepEqual(created, [...created].sort(), 'the oldest creation first');
    assert.ok(created.every((at) => /^2025-11-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at)), 'UTC ISO 8601');
    const byOrder = new Map(rows.map((row) => [row[column('order_id')]!, row]));
    assert.equal(byOrder.get(`'${trickyOrderIds[0]}`)?.[column('amount')], records[0]!.amount, 'a formula-looking order id starts with an apostrophe; its quotes survive');
    for (const id of trickyOrderIds.slice(1, 5)) assert.ok(byOrder.has(`'${id}`), `${JSON.stringify(id)} neutralised`);
    assert.ok(byOrder.has(trickyOrderIds[5]!), 'a quote and a comma quoted, not neutralised');
    assert.ok(byOrder.has(trickyOrderIds[6]!), 'non-ASCII text as it is');
    assert.equal(byOrder.get('api-export-7')?.[column('operator')], 'Moov Africa Bénin');
    assert.equal(byOrder.get('api-export-7')?.[column('country')], 'BJ');
    assert.equal(byOrder.get('api-export-7')?.[column('phone_number_masked')], "'+229••••••••07", 'masked, and its + neutralised');
    assert.equal(byOrder.get('api-export-21')?.[column('country')], 'GH');
    assert.equal(byOrder.get('api-export-21')?.[column('amount_refunded')], '1.5', 'a refund in GHS, as a decimal');
    assert.equal(byOrder.get('api-export-22')?.[column('amount_refund_pending')], '0', 'none waiting');
    assert.equal(byOrder.get('api-export-22')?.[column('finished_at')], new Date(records[22]!.createdAt + 40_000).toISOString(), 'finished when it reached its final state');
    assert.equal(byOrder.get('api-export-27')?.[column('finished_at')], '', 'still pending: not finished');
    for (const row of rows) for (const name of ['amount', 'amount_refunded', 'amount_refund_pending']) assert.match(row[column(name)]!, /^\d+(\.\d+)?$/);
    assert.ok(text.includes(`,${records[3]!.amount},"GHS",`), 'an amount is written unquoted, a number for the spreadsheet');
    for (const record of records) assert.ok(!text.includes(record.payment!.phoneNumber.slice(1)), 'never a full number');
  });

  it('exports this month so far without from and to, and refuses a bad window saying what to send', async () => {
    const thisMonth = parseCsv(await (await get('')).text());
    assert.equal(thisMonth.length, 1, 'this month (UTC) so far: the header only, the seeded payments are in November 2025');
    const bad = await get('?from=last%20month');
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      error: { code: 'BAD_REQUEST', message: 'from must be a UTC time in ISO 8601, e.g. from=2026-11-01T00:00:00Z, or a date, from=2026-11-01 (midnight UTC); got "last month".' },
    });
    const local = await get('?from=2026-11-01T00:00:00');
    assert.equal(local.status, 400, 'a time without its zone is ambiguous');
    const backwards = await (await get('?from=2026-12-01&to=2026-11-01')).json();
    assert.match(backwards.error.message, /^from \(2026-12-01T00:00:00.000Z\) must be before to \(2026-11-01T00:00:00.000Z\)/);
    assert.equal((await get('?from=2026-11-01', 'text/csv', 'not-the-secret')).status, 401, 'the server secret, as every route');
  });

  it('answers the JSON list as before without Accept: text/csv', async () => {
    const response = await get('?limit=2', 'application/json');
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    const body = await response.json();
    assert.equal(body.payments.length, 2);
    assert.deepEqual(Object.keys(body), ['payments']);
    assert.equal((await get('?limit=2', 'text/csv;q=0, application/json')).headers.get('content-type')?.startsWith('application/json'), true);
    assert.equal((await get('?limit=2', '*/*')).headers.get('content-type')?.startsWith('application/json'), true, 'a wildcard never asks for a file');
  });

  it('answers the xlsx workbook when Accept prefers it (issue 55), the CSV on a tie', async () => {
    const workbook = await get('?from=2025-11-01&to=2025-12-01', `text/csv;q=0.5, ${xlsxContentType}`);
    assert.equal(workbook.status, 200);
    assert.equal(workbook.headers.get('content-type'), xlsxContentType);
    assert.equal(workbook.headers.get('content-disposition'), 'attachment; filename="payments-2025-11-01-2025-12-01.xlsx"');
    const parts = unzipSync(new Uint8Array(await workbook.arrayBuffer()));
    assert.equal(strFromU8(parts['xl/worksheets/payments1.xml']!).match(/<row /g)?.length, records.length + 1, 'the same payments as the CSV');
    assert.match((await get('?from=2025-11-01&to=2025-12-01', `${xlsxContentType}, text/csv`)).headers.get('content-type')!, /^text\/csv/);
  });
});

describe('the export stream', () => {
  /** A memory store that counts the pages read through the export's index. */
  function countingStore(store: CheckoutStore) {
    const pages: CreatedPaymentsPage[] = [];
    const counted: CheckoutStore = { ...store, listPaymentsCreated: (page) => (pages.push(page), store.listPaymentsCreated!(page)) };
    return { counted, pages };
  }

  it('reads the store a page at a time, and only as the reader takes the file', async () => {
    const store = createMemoryStore();
    for (const record of exportRecords('paged', 2_000, november)) await store.createIfAbsent(record);
    const { counted, pages } = countingStore(store);
    const stream = await paymentsCsvStream(counted, { from: november, to: november + 86_400_000 }, { pageSize: 100 });
    const reader = stream.getReader();
    const lines = (chunk: Uint8Array) => new TextDecoder().decode(chunk).split('\r\n').length - 1;
    let rows = lines((await reader.read()).value!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(pages.length <= 3, `a reader that stopped after one chunk has had at most 3 pages read (${pages.length})`);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rows += lines(chunk.value);
    assert.ok(pages.every((page) => page.limit === 100));
    assert.equal(pages.length, 21, '2,000 payments in pages of 100, and the empty one that ends them');
    assert.equal(rows, 2_001, 'the header and every payment');
  });
});

describe('the export when the store fails', () => {
  /** A memory store of 1,200 payments (three pages) whose export index fails from read `failAt` on. */
  async function failingStore(failAt: number): Promise<CheckoutStore> {
    const store = createMemoryStore();
    for (const record of exportRecords(`failing-${failAt}`, 1_200, november)) await store.createIfAbsent(record);
    let reads = 0;
    return { ...store, listPaymentsCreated: (page) => (++reads >= failAt ? Promise.reject(new Error('disk I/O error')) : store.listPaymentsCreated!(page)) };
  }
  const exportFrom = (h: Harness) => fetch(`${h.base}/server/payments?from=2025-11-01&to=2025-12-01`, { headers: { authorization: `Bearer ${serverSecret}`, accept: 'text/csv' } });

  it('answers 503 STORE_UNAVAILABLE, not a file, when the first page cannot be read', async () => {
    const h = await startHarness({ serverSecret, store: await failingStore(1), setupChecksAtStart: false });
    try {
      const response = await exportFrom(h);
      assert.equal(response.status, 503);
      assert.equal((await response.json()).error.code, 'STORE_UNAVAILABLE');
    } finally {
      await h.close();
    }
  });

  it('cuts the transfer when a later page fails: the client sees a failed download, never a short file that ends cleanly', async () => {
    const h = await startHarness({ serverSecret, store: await failingStore(2), setupChecksAtStart: false });
    try {
      const response = await exportFrom(h);
      assert.equal(response.status, 200, 'the first page was read: the answer had started');
      await assert.rejects(response.text(), 'reading the body fails');
    } finally {
      await h.close();
    }
  });
});

