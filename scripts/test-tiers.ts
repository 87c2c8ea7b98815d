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
 * `node --import tsx scripts/test-tiers.ts quick|full` prints one tier's files, one a line;
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

const reasons = new Map<string, string | null>();

/** Why a file (or what it imports) needs the full tier, or null when it is quick. */
export function fullTierReason(file: string, seen = new Set<string>()): string | null {
  const path = resolve(root, file);
  if (reasons.has(path)) return reasons.get(path)!;
  if (seen.has(path)) return null;
  seen.add(path);
  const code = codeOf(readFileSync(path, 'utf8'));
  const name = relative(root, path);
  let reason: string | null = null;
  const browser = browserPackages.exec(code);
  const started = programCall.exec(code) ?? programPath.exec(code);
  if (browser) reason = `${name} drives a browser (${browser[1]})`;
  else if (started) reason = `${name} starts ${started[0].replace(/^[\w]+\(\s*/, '')}`;
  else if (compilerRun.test(code)) reason = `${name} runs the TypeScript compiler over a project`;
  else {
    for (const imported of localImports(path, code)) {
      reason = fullTierReason(imported, seen);
      if (reason) break;
    }
  }
  reasons.set(path, reason);
  return reason;
}

/** The split of the given test files (paths from the repository's root). */
export function splitTiers(files: string[]): { quick: string[]; full: string[] } {
  const quick = files.filter((file) => fullTierReason(file) === null);
  return { quick, full: files.filter((file) => !quick.includes(file)) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tier = process.argv[2];
  const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
  const { quick, full } = splitTiers(files);
  if (tier === 'quick') console.log(quick.join('\n'));
  else if (tier === 'full') console.log(full.join('\n'));
  else if (tier === 'why') for (const file of full) console.log(`${file}: ${fullTierReason(file)}`);
  else {
    console.error('usage: node --import tsx scripts/test-tiers.ts quick|full|why < list of test files');
    process.exit(2);
  }
}

