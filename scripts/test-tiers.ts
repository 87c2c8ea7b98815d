/**
 * Which Node-side test files belong to the quick tier (`npm run test:quick`, the inner loop) and
 * which only to the full one (`npm run test:node`, part of `npm test`).
 *
 * The rule, read from the code so that a new test falls in the right tier by itself: a test file is
 * "full tier only" when it, or a helper under test/ or scripts/ it imports (followed through its
 * relative imports), does one of these:
 *  - drives a browser: imports playwright, puppeteer or selenium-webdriver;
 *  - starts or calls a program the machine has to provide: redis-server/redis-cli, PostgreSQL
 *    (initdb, pg_ctl, psql, /usr/lib/postgresql), nginx, Caddy, PHP, Python (and Django),
 *    promtool, LibreOffice (soffice), xvfb-run, systemd-analyze, openssl, mount;
 *  - packs or installs with npm (`npm pack`, `npm install`, a spawned `npm`);
 *  - runs the TypeScript compiler over a project of its own (`node_modules/.bin/tsc`: the package's
 *    declarations, the documents' examples): tens of seconds of CPU each, where the quick tier
 *    already type-checks every source once (issue 42: those two files were a fifth of its CPU).
 * Everything else (a real HTTP server on loopback, the sandbox, a child `node` killed with -9,
 * SQLite files in a temporary folder) is quick. The program names are matched as words in code, not
 * in comments; a name followed by a dot (`nginx.conf`) is a file name, not the program.
 *
 * The runtime tier (`npm run test:runtime`, what `.ci/run` runs again on Node 22, the oldest Node
 * the package supports) is what a Node line changes: the quick tier (every folder's tests, which
 * load every source module and drive Node's http, fetch, crypto, streams, net, child processes and
 * the file store's native binding on loopback), the crash tests (test/crash/: kill -9, two
 * processes, a stopped database, a full disk: what the line's processes, signals, sockets and fsync
 * do to a payment, with the PostgreSQL and Redis drivers under them), PostgreSQL over TLS (the
 * store's one use of node:tls), and the full-tier files whose only outside program is npm (the npm
 * each line ships installs the package). The rest tests another program's side, the same whichever
 * Node serves it: a browser, the PHP and Python shops, nginx, Caddy, promtool, LibreOffice,
 * systemd-analyze, the TypeScript compiler over a project, and the store engines' own SQL and Lua
 * (the stores' suites).
 *
 * `node --import tsx scripts/test-tiers.ts quick|runtime|full` prints one tier's files, one a line;
 * `... why` prints each full-tier file with the first thing that put it there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const browserPackages = /(?:from\s+|import\(\s*)['"](playwright|playwright-core|@playwright\/test|puppeteer|puppeteer-core|selenium-webdriver)(?:\/[^'"]*)?['"]/;
const program = '(redis-server|redis-cli|initdb|pg_ctl|postgres|psql|nginx|caddy|php|python3?|promtool|soffice|libreoffice|xvfb-run|systemd-analyze|openssl|mount|npm)';
/** A program started by name or path: `spawn('php', …)`, `run('npm', ['pack', …])`, `requireRuntime('php', …)`. */
const programCall = new RegExp(String.raw`\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|run|requireProgram|requireRuntime)\(\s*['"\x60](?:[^'"\x60]*/)?${program}['"\x60]`);
/** A program's installed path kept in a constant: `'/usr/sbin/nginx'`, `'/usr/lib/postgresql/15/bin'`. */
const programPath = new RegExp(String.raw`['"\x60]/usr/(?:s?bin|lib)/(?:${program.slice(1, -1)}|postgresql)\b`);

/** The compiler started from the project's node_modules: `join(root, 'node_modules', '.bin', 'tsc')` or `node_modules/.bin/tsc`. */
const compilerRun = /['"\x60]\.bin['"\x60]\s*,\s*['"\x60]tsc['"\x60]|node_modules\/\.bin\/tsc\b/;

/** The code of a file with its comments removed, so a sentence about nginx does not count as using it. */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/(^|\s)\/\/.*$/, ''))
    .join('\n');
}

/** The files under test/ or scripts/ a file imports by a relative path (src/ is the code under test, not a helper). */
function localImports(file: string, code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = resolve(dirname(file), match[1]!);
    const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`];
    const hit = candidates.find((candidate) => existsSync(candidate) && /\.(m?ts|m?js)$/.test(candidate));
    const inside = hit && relative(root, hit);
    if (inside && (inside.startsWith('test/') || inside.startsWith('scripts/'))) found.push(hit);
  }
  return found;
}

/** One thing that puts a file in the full tier, and whether the Node line running it matters to it. */
interface FullTierUse {
  reason: string;
  /** npm: the runtime's side is the subject (header). */
  runtimeBound: boolean;
}

/** The one program whose use is there for what the Node line changes: the npm it ships. */
const runtimeBoundProgram = 'npm';
/** Kill -9, two processes, a stopped database, a full disk, and node:tls under the PostgreSQL store: whatever they start, the runtime is the subject. */
const runtimeSubjects = /^test\/(?:crash\/|server\/stores\/postgres\/postgres-tls\.test\.ts$)/;

const usesByFile = new Map<string, FullTierUse[]>();

/** Every use of a browser, a program or the compiler in a file and the helpers it imports. */
function fullTierUses(path: string, seen: Set<string>): FullTierUse[] {
  if (usesByFile.has(path)) return usesByFile.get(path)!;
  if (seen.has(path)) return [];
  seen.add(path);
  const code = codeOf(readFileSync(path, 'utf8'));
  const name = relative(root, path);
  const uses: FullTierUse[] = [];
  const browser = browserPackages.exec(code);
  if (browser) uses.push({ reason: `${name} drives a browser (${browser[1]})`, runtimeBound: false });
  for (const pattern of [programCall, programPath]) {
    for (const started of code.matchAll(new RegExp(pattern.source, 'g'))) {
      const program = started[1] ?? /([\w-]+)$/.exec(started[0])![1]!;
      uses.push({ reason: `${name} starts ${started[0].replace(/^[\w]+\(\s*/, '')}`, runtimeBound: program === runtimeBoundProgram });
    }
  }
  if (compilerRun.test(code)) uses.push({ reason: `${name} runs the TypeScript compiler over a project`, runtimeBound: false });
  for (const imported of localImports(path, code)) uses.push(...fullTierUses(imported, seen));
  usesByFile.set(path, uses);
  return uses;
}

function usesOf(file: string): FullTierUse[] {
  return fullTierUses(resolve(root, file), new Set());
}

/** Why a file (or what it imports) needs the full tier, or null when it is quick. */
export function fullTierReason(file: string): string | null {
  return usesOf(file)[0]?.reason ?? null;
}

/** The split of the given test files (paths from the repository's root); runtime holds quick. */
export function splitTiers(files: string[]): { quick: string[]; runtime: string[]; full: string[] } {
  const quick = files.filter((file) => usesOf(file).length === 0);
  const runtime = files.filter((file) => runtimeSubjects.test(file) || usesOf(file).every((use) => use.runtimeBound));
  return { quick, runtime, full: files.filter((file) => !quick.includes(file)) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tier = process.argv[2];
  const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
  const { quick, runtime, full } = splitTiers(files);
  if (tier === 'quick') console.log(quick.join('\n'));
  else if (tier === 'runtime') console.log(runtime.join('\n'));
  else if (tier === 'full') console.log(full.join('\n'));
  else if (tier === 'why') for (const file of full) console.log(`${file}: ${fullTierReason(file)}`);
  else {
    console.error('usage: node --import tsx scripts/test-tiers.ts quick|runtime|full|why < list of test files');
    process.exit(2);
  }
}

