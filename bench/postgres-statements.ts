/**
 * PostgreSQL's side of issue 43's profile: what the database does per service notification while
 * two companions take bench/companion.ts's load (the same window: from the first measured request
 * until every notification is applied and delivered). The bench's own PostgreSQL runs with
 * `pg_stat_statements` (nested statements too: the ones inside the write functions), and this
 * prints, per notification, each statement's calls, time and rows, the top-level calls (round
 * trips), the WAL written and flushed, and the CPU time of PostgreSQL's processes beside the
 * companions' (bench/companion.ts counts only theirs).
 *
 * Run: `npx tsx bench/postgres-statements.ts` (a minute; it starts its own PostgreSQL).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { measureThroughput, startServerProcess } from './companion.js';
import { startSharedPostgres } from '../test/support/shared-stores.js';

const NOTIFICATIONS = 6_000;

/** User + system CPU of these processes so far, in µs (a process gone since is missing: backends of a pool stay). */
function cpuOf(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      // After the command name in parentheses: field 14 (utime) and 15 (stime) are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // exited
    }
  }
  return ticks;
}

const shared = await startSharedPostgres({ settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } });
const psql = (sql: string) => shared.server.psql(sql);
try {
  psql('CREATE EXTENSION pg_stat_statements');
  const env = shared.freshEnv();
  const a = await startServerProcess('server', env);
  const b = await startServerProcess('server', env);
  let cpuBefore = new Map<number, number>();
  let cpuUsed = new Map<number, number>();
  /** Each process at the end: its kind (a backend: the statement it ran last, which tells the inbox's connection and the hub's). */
  let kinds = new Map<number, string>();
  let notifications = 0;
  try {
    console.log(`load average at the start: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    const figures = await measureThroughput(a, 'PostgreSQL store, two processes', NOTIFICATIONS, [b], {
      async start() {
        psql("SELECT pg_stat_statements_reset(), pg_stat_reset_shared('wal')");
        cpuBefore = cpuOf(shared.server.processes());
      },
      async stop(measured) {
        notifications = measured;
        const after = cpuOf(shared.server.processes());
        cpuUsed = new Map([...after].map(([pid, used]) => [pid, used - (cpuBefore.get(pid) ?? 0)]));
        kinds = new Map(psql("SELECT pid, backend_type, coalesce(left(regexp_replace(query, '\\s+', ' ', 'g'), 60), '') FROM pg_stat_activity").trim().split('\n').map((row) => {
          const [pid, type, query] = row.split('|');
          return [Number(pid), type === 'client backend' ? `backend, last ran: ${query}` : type!];
        }));
      },
    });
    for (const figure of figures) console.log(`${figure.name}: ${Number.isInteger(figure.value) ? figure.value : figure.value.toFixed(2)} ${figure.unit}`);
    const per = (value: number, digits = 2) => (value / notifications).toFixed(digits);
    const byKind = new Map<string, number>();
    for (const [pid, used] of cpuUsed) byKind.set(kinds.get(pid) ?? 'exited or other', (byKind.get(kinds.get(pid) ?? 'exited or other') ?? 0) + used);
    console.log(`\nPostgreSQL's processes: ${per([...cpuUsed.values()].reduce((sum, used) => sum + used, 0), 0)} µs of CPU per notification`);
    for (const [kind, used] of [...byKind].sort((a, b) => b[1] - a[1])) if (used > 0) console.log(`  ${per(used, 0)} µs: ${kind}`);
    const [walRecords, walBytes, walWrites, walSyncs] = psql('SELECT wal_records, wal_bytes, wal_write, wal_sync FROM pg_stat_wal').trim().split('|').map(Number);
    console.log(`WAL per notification: ${per(walRecords!, 1)} records, ${per(walBytes!, 0)} bytes, ${per(walWrites!, 3)} writes, ${per(walSyncs!, 3)} flushes to disk`);
    const rows = psql(
      `SELECT toplevel, calls, round(total_exec_time::numeric, 1), rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 150)
       FROM pg_stat_statements WHERE calls > 0 ORDER BY toplevel DESC, total_exec_time DESC LIMIT 40`,
    ).trim().split('\n');
    const topLevelCalls = rows.map((row) => row.split('|')).filter(([top]) => top === 't').reduce((sum, [, calls]) => sum + Number(calls), 0);
    console.log(`round trips (top-level statements) per notification: ${per(topLevelCalls)}\n`);
    console.log('top-level | calls/notification | ms/notification | rows/notification | ms/call | statement');
    for (const row of rows) {
      const [top, calls, ms, count, text] = row.split('|');
      console.log(`${top === 't' ? 'yes' : 'nested'} | ${per(Number(calls), 3)} | ${per(Number(ms), 4)} | ${per(Number(count), 2)} | ${(Number(ms) / Number(calls)).toFixed(3)} | ${text}`);
    }
    console.log(`\nload average at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  } finally {
    a.stop();
    b.stop();
  }
} finally {
  await shared.stop();
}
