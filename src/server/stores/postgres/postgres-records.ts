/**
 * How a CheckoutRecord maps to its row in `<schema>.checkouts`: the whole record as json, plus the
 * few columns that are looked up, indexed or listed. The one place to change when a record gains a
 * field that must be queried (a refund held for support, a payment marked for review): add it to
 * `indexedColumns` and a migration in postgres-schema.ts that adds the column, adds it to the type
 * `checkout_write` (migration 7) and replaces `write_checkout` and `write_matching`
 * (postgres-write-functions.ts) with it in their lists; the write functions and the tests' seeding
 * insert follow.
 *
 * And how rows travel to the write functions: as ONE json document per call (`jsonArray`), sent as
 * its UTF-8 bytes. Not as arrays of texts, which `pg` escapes element by element into an array
 * literal, and not as one JavaScript string of the whole batch: a record holding a masked number
 * (`+229••••••••01`, in a merchant notification's payload) makes that string two bytes a character,
 * and joining, measuring and encoding a few hundred kilobytes of it cost the companion about a
 * tenth of its time per notification (issue 43's profile; README).
 *
 * And what PostgreSQL cannot decode is never sent as such (issue 55, `keepableJson`): a string
 * holding a NUL or a lone UTF-16 surrogate is written by JSON.stringify as `\u0000` or `\ud83d`,
 * which a `json` value keeps, but every function that reads a field of it (json_populate_record and
 * json_populate_recordset in the write functions, `record->>'createdAt'` in migration 3's index)
 * decodes every string of the document and refuses those (22P05, 22P02): a refund's reason or a
 * pay-out's failure reason holding one made the write fail for ever.
 */
import { nextDeliveryAt, type CheckoutRecord } from '../../model/records.js';
import { operatorName, supportSince } from '../../model/support.js';

/**
 * The mark that stands for what PostgreSQL cannot decode, in the json texts the store writes: U+FDD0,
 * a Unicode noncharacter, set aside for a program's internal use and never interchanged as text, so
 * a text sent to the companion should never hold one (one that does is kept too, doubled).
 *
 * In a json text written by JSON.stringify, the mark stands for:
 * - `\u0000` (a NUL): the mark then `0000`; `\udXXX` (a lone surrogate): the mark then `dXXX`, the
 *   same four lowercase hex digits JSON.stringify wrote;
 * - the mark itself: the mark twice.
 * Nothing else changes, so a record without any of the three is sent and read as before (nearly
 * every record: two scans of the text); the rows a 0.5.0 process wrote read the same (but for a
 * text holding the mark itself then four hex digits, which 0.5.0 did not double: a noncharacter
 * nothing sends as text); a 0.5.0 process beside this one reads a marked text with the mark in it
 * (it could not write one at all), and writes it back unchanged.
 *
 * Why not another way: the record's json cannot be sent as a json string for the functions to cast
 * (migration 3's index decodes every string of the stored record too, so the stored text itself
 * must hold no such escape), and a NUL refused or replaced in the store would lose what the service
 * said (a pay-out's failure reason): the store keeps every text as the file store does.
 */
const mark = '\ufdd0';
/** In a json text, in one pass: an escaped backslash (kept: its second `\` starts no escape), a NUL's or a lone surrogate's escape, the mark. */
const undecodable = /\\\\|\\u(?:0000|d[89a-f][0-9a-f]{2})|\ufdd0/g;
const marked = /\ufdd0(\ufdd0|[0-9a-f]{4})/g;

/** `json` (as JSON.stringify wrote it) with no escape PostgreSQL refuses to decode (see {@link mark}). */
export function keepableJson(json: string): string {
  // Two scans for a character first (0.7 to 1 µs over a record of 2 KB holding a masked number's
  // bullets, measured), the regex only then (about 10 µs): nearly every record has neither.
  if (!json.includes('\\u') && !json.includes(mark)) return json;
  return json.replace(undecodable, (found) => (found === '\\\\' ? found : found === mark ? mark + mark : mark + found.slice(2)));
}

/** The json text {@link keepableJson} was given, from what it wrote (and PostgreSQL gives back). */
export function restoredJson(json: string): string {
  return json.includes(mark) ? json.replace(marked, (_, code: string) => (code === mark ? mark : `\\u${code}`)) : json;
}

/** A record as the store reads it: its json column as text (`record::text`), restored, then parsed. */
export function parseStoredRecord<T = CheckoutRecord>(json: string): T {
  return JSON.parse(restoredJson(json)) as T;
}

/** In a text (not json): a NUL, the mark, or a lone surrogate (`\p{Cs}` in a `u` regex matches no half of a pair). */
const undecodableText = /[\u0000\ufdd0\p{Cs}]/gu;

/**
 * A text column's value with the same marks as {@link keepableJson} (a NUL: the mark then `0000`),
 * for a text from outside kept in a column of its own (the operator's name, `payment_operator`).
 */
export function keepableText(text: string): string {
  return text.replace(undecodableText, (found) => (found === mark ? mark + mark : mark + found.charCodeAt(0).toString(16).padStart(4, '0')));
}

/** The text {@link keepableText} was given. */
export function restoredText(text: string): string {
  return text.includes(mark) ? text.replace(marked, (_, code: string) => (code === mark ? mark : String.fromCharCode(Number.parseInt(code, 16)))) : text;
}

/** Column name → its value for `record`, every column but the record's own json, in the order of the SQL built below. */
function indexedColumns(record: CheckoutRecord): Record<string, string | number | null> {
  return {
    order_id: record.orderId,
    revision: record.revision,
    token_hash: record.tokenHash,
    return_id: record.returnId,
    retain_until: record.retainUntil,
    next_delivery_at: nextDeliveryAt(record),
    payment_state: record.payment?.state ?? null,
    payment_updated_at: record.payment?.updatedAt ?? null,
    ...supportColumns(record),
  };
}

/** Column name → its value for `record`, the record as json text last. */
export function recordColumns(record: CheckoutRecord): Record<string, string | number | null> {
  const columns = indexedColumns(record);
  if (typeof columns.payment_operator === 'string') columns.payment_operator = keepableText(columns.payment_operator);
  return { ...columns, record: keepableJson(JSON.stringify(record)) };
}

/** The support views' columns (migration 2, postgres-support-views.ts). */
export function supportColumns(record: CheckoutRecord): { payment_operator: string | null; support_at: number | null } {
  return { payment_operator: record.payment ? operatorName(record.payment) : null, support_at: supportSince(record) };
}

const columnNames = Object.keys(recordColumns({ payment: null, deliveries: [] } as unknown as CheckoutRecord));

export function insertRecordSql(schema: string): string {
  const placeholders = columnNames.map((name, index) => (name === 'record' ? `$${index + 1}::json` : `$${index + 1}`));
  return `INSERT INTO ${schema}.checkouts (${columnNames.join(', ')}) VALUES (${placeholders.join(', ')})`;
}

export function recordValues(record: CheckoutRecord): Array<string | number | null> {
  return Object.values(recordColumns(record));
}

/**
 * The row as the write functions read it (json_populate_record, json_populate_recordset): each
 * column by name, then the record as json, stringified once.
 */
export function recordRow(record: CheckoutRecord): string {
  return keepableJson(`${JSON.stringify(indexedColumns(record)).slice(0, -1)},"record":${JSON.stringify(record)}}`);
}

/**
 * One compare-and-set of a batch as migration 7's `compare_and_set_rows` reads it (its type
 * `checkout_write`): its place in the batch, the revision its writer read, the service order ids
 * the record carries, then the row.
 */
export function writeRow(n: number, expected: number, serviceIds: readonly string[], record: CheckoutRecord): string {
  return `{"n":${n},"expected":${expected},"service_ids":${JSON.stringify(serviceIds)},${recordRow(record).slice(1)}`;
}

/**
 * `[item,item,…]` as UTF-8 bytes, for a `$n::json` parameter (`pg` sends a Buffer as it is, and
 * PostgreSQL reads a json parameter's bytes as its text). Each item, a json text, is encoded
 * straight into one buffer: never joined into one string first.
 */
export function jsonArray(items: readonly string[]): Buffer {
  // At most 3 bytes of UTF-8 per UTF-16 unit (a surrogate pair's 4 bytes are 2 units).
  let most = 2;
  for (const item of items) most += item.length * 3 + 1;
  const bytes = Buffer.allocUnsafe(most);
  let at = 0;
  bytes[at++] = 0x5b; // [
  for (const [index, item] of items.entries()) {
    if (index > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(item, at, 'utf8');
  }
  bytes[at++] = 0x5d; // ]
  return bytes.subarray(0, at);
}
