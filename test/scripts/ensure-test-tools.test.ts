/**
 * Issue 11 §6: `npm test` on a machine without Chromium (or redis-server, PostgreSQL, PHP with curl,
 * the baselines' font, issue 33's Firefox ESR, WebKitGTK and Xvfb, or issue 34's promtool) stops
 * before any suite, with one line per missing program saying what to do, instead of a stack of
 * launch errors from four suites.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/ensure-test-tools.sh', import.meta.url));
// A PATH with only what the script itself needs: no chromium, redis-server, php or apt-get.
const bareBin = mkdtempSync(join(tmpdir(), 'bare-bin-'));
for (const tool of ['id', 'grep']) symlinkSync(`/usr/bin/${tool}`, join(bareBin, tool));
after(() => rmSync(bareBin, { recursive: true, force: true }));
// The engines suite's programs, all pointed at nothing (xvfb-run is absent from bareBin).
const noEngines = { ENSURE_TEST_TOOLS_FIREFOX: '/nonexistent/firefox-esr', ENSURE_TEST_TOOLS_WEBKIT_DRIVER: '/nonexistent/WebKitWebDriver', ENSURE_TEST_TOOLS_WEBKIT_PYTHON: '/nonexistent/python3' };
const engineLine = /engines suite/;
// The deployment guide's programs (test/deploy/), all pointed at nothing (openssl is absent from bareBin).
const noDeploy = { ENSURE_TEST_TOOLS_NGINX: '/nonexistent/nginx', ENSURE_TEST_TOOLS_CADDY: '/nonexistent/caddy', ENSURE_TEST_TOOLS_SYSTEMD_ANALYZE: '/nonexistent/systemd-analyze' };
const deployLine = /deployment guide's tests/;

function run(env: Record<string, string>) {
  return spawnSync('/bin/bash', [script], { env, encoding: 'utf8' });
}

describe('scripts/ensure-test-tools.sh', () => {
  it('on a bare machine it cannot install on, says in one line per program what to do, and fails', () => {
    const result = run({ PATH: bareBin, ENSURE_TEST_TOOLS_DEBIAN_CHROMIUM: '/nonexistent/chromium', ENSURE_TEST_TOOLS_DJANGO_PYTHON: '/nonexistent/python3', ENSURE_TEST_TOOLS_POSTGRES_BIN: '/nonexistent/postgresql/bin', ...noEngines, ...noDeploy });
    assert.equal(result.status, 1);
    const lines = result.stderr.trim().split('\n').filter((line) => !engineLine.test(line) && !deployLine.test(line));
    assert.equal(lines.length, 7, result.stderr);
    assert.match(lines[0]!, /^npm test: Chromium is missing: install Debian's chromium package .*or set CHROME_PATH/);
    assert.match(lines[1]!, /^npm test: redis-server is missing: .*redis-server/);
    assert.match(lines[2]!, /^npm test: PostgreSQL is missing \(\/nonexistent\/postgresql\/bin\/initdb\): install Debian's postgresql package/);
    assert.match(lines[3]!, /^npm test: php is missing: .*php-cli and php-curl.*php-sqlite3 and php-laravel-framework/);
    assert.match(lines[4]!, /^npm test: Django is missing for \/nonexistent\/python3: install Debian's python3-django package/);
    assert.match(lines[5]!, /^npm test: The DejaVu Sans font is missing \(visual baselines\): .*fonts-dejavu-core/);
    assert.match(lines[6]!, /^npm test: promtool is missing \(the metrics alert rules' test\): install Debian's prometheus package \(apt-get install prometheus\)/);
  });

  it("on a machine without LibreOffice, names the package the payments export's test opens its file with", () => {
    const result = run({ PATH: bareBin, CHROME_PATH: '/bin/sh', ENSURE_TEST_TOOLS_DJANGO_PYTHON: '/bin/true', ENSURE_TEST_TOOLS_SOFFICE: '/nonexistent/soffice' });
    assert.equal(result.status, 1);
    const lines = result.stderr.trim().split('\n').filter((line) => /LibreOffice/.test(line));
    assert.deepEqual(lines, [
      "npm test: LibreOffice is missing (/nonexistent/soffice, the payments export's test): install Debian's libreoffice-calc-nogui package (apt-get install libreoffice-calc-nogui), or set SOFFICE_PATH to a soffice binary.",
    ]);
  });

  it('with PHP but not its SQLite driver or Laravel, names the two packages the Laravel shop needs', () => {
    // A php that has curl only, and no Illuminate/ on its include path.
    const bin = mkdtempSync(join(tmpdir(), 'php-bin-'));
    try {
      for (const tool of ['id', 'grep']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
      writeFileSync(join(bin, 'php'), '#!/bin/sh\n[ "$1" = -m ] && echo curl && exit 0\nexit 1\n', { mode: 0o755 });
      // Only these programs on PATH (no apt-get: nothing is installed).
      const result = run({ PATH: bin, CHROME_PATH: '/bin/sh', ENSURE_TEST_TOOLS_DJANGO_PYTHON: '/bin/true', ...noEngines });
      const lines = result.stderr.trim().split('\n').filter((line) => /PHP|Laravel/.test(line));
      assert.deepEqual(lines, [
        "npm test: PHP's SQLite driver is missing: install Debian's php-sqlite3 package (apt-get install php-sqlite3).",
        "npm test: Laravel is missing: install Debian's php-laravel-framework package (apt-get install php-laravel-framework).",
      ]);
      assert.equal(result.status, 1);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('on a machine without Firefox, WebKitGTK or Xvfb, names each package the engines suite needs, and fails', () => {
    // Everything else present (CHROME_PATH, a python with "Django"): only the engines are missing.
    const result = run({ PATH: bareBin, CHROME_PATH: '/bin/sh', ENSURE_TEST_TOOLS_DJANGO_PYTHON: '/bin/true', ...noEngines });
    assert.equal(result.status, 1);
    const lines = result.stderr.trim().split('\n').filter((line) => engineLine.test(line));
    assert.equal(lines.length, 4, result.stderr);
    assert.match(lines[0]!, /^npm test: Firefox is missing \(\/nonexistent\/firefox-esr, engines suite\): install Debian's firefox-esr package \(apt-get install firefox-esr\)/);
    assert.match(lines[1]!, /^npm test: WebKitWebDriver is missing .*install Debian's webkit2gtk-driver package \(apt-get install webkit2gtk-driver\)/);
    assert.match(lines[2]!, /^npm test: xvfb-run is missing .*\(apt-get install xvfb xauth\)/);
    assert.match(lines[3]!, /^npm test: WebKitGTK's Python bindings are missing for \/nonexistent\/python3 .*\(apt-get install python3-gi python3-gi-cairo gir1.2-webkit2-4.1\)/);
  });

  it("on a machine without nginx, Caddy, openssl or systemd-analyze, names each package the deployment guide's tests need, and fails", () => {
    // Everything else present: only the deployment guide's programs are missing.
    const result = run({ PATH: bareBin, CHROME_PATH: '/bin/sh', ENSURE_TEST_TOOLS_DJANGO_PYTHON: '/bin/true', ...noDeploy });
    assert.equal(result.status, 1);
    const lines = result.stderr.trim().split('\n').filter((line) => deployLine.test(line));
    assert.equal(lines.length, 4, result.stderr);
    assert.match(lines[0]!, /^npm test: nginx is missing \(\/nonexistent\/nginx, deployment guide's tests\): install Debian's nginx package \(apt-get install nginx\)/);
    assert.match(lines[1]!, /^npm test: Caddy is missing \(\/nonexistent\/caddy, .*\(apt-get install caddy\)/);
    assert.match(lines[2]!, /^npm test: openssl is missing .*\(apt-get install openssl\)/);
    assert.match(lines[3]!, /^npm test: systemd-analyze is missing \(\/nonexistent\/systemd-analyze, .*\(apt-get install systemd\)/);
  });

  it('names a CHROME_PATH that is not a program', () => {
    const result = run({ PATH: bareBin, CHROME_PATH: '/nonexistent/chrome' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /CHROME_PATH=\/nonexistent\/chrome is not an executable file/);
  });

  it('passes quietly where everything is installed (this machine)', () => {
    const result = run({ PATH: process.env.PATH ?? '' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
  });

  it('runs first in npm test, and in .ci/run', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    assert.match(pkg.scripts.test!, /^bash scripts\/ensure-test-tools\.sh && /);
    assert.match(await readFile(new URL('../../.ci/run', import.meta.url), 'utf8'), /bash scripts\/ensure-test-tools\.sh/);
  });
});
