/**
 * Issue 34: docs/deploy.md's systemd unit, verified by Debian's `systemd-analyze verify` as the
 * guide writes it (only `/srv/shop` replaced by a folder holding an executable
 * `node_modules/.bin/momo-checkout`, which verify requires). verify exits 0 on an unknown or
 * malformed setting and only prints it, so its output must be empty; `systemd-analyze security`
 * rates its hardening offline. Section 8's template pair (`momo-checkout@.socket`, and the service
 * with section 8's `[Unit]`) is verified the same way, by its instances. The unit is not started:
 * this machine's systemd is not PID 1. systemd-analyze missing fails with the package to install.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { standaloneOptionsFromEnv } from '../../src/server/commands/standalone-options.js';
import { guideBlock, requireProgram, substitute } from './guide.js';

const systemdAnalyze = process.env.SYSTEMD_ANALYZE_PATH || '/usr/bin/systemd-analyze';

describe("docs/deploy.md: the systemd unit", () => {
  let dir: string;
  let unit: string;

  before(async () => {
    requireProgram(systemdAnalyze, ['--version'], 'systemd');
    dir = await mkdtemp(join(tmpdir(), 'momo-unit-'));
    await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
    await writeFile(join(dir, 'node_modules/.bin/momo-checkout'), '#!/bin/sh\nexit 0\n');
    await chmod(join(dir, 'node_modules/.bin/momo-checkout'), 0o755);
    unit = await guideBlock('momo-checkout.service');
    // The service requires its socket unit (section 3): verify looks for it beside the service.
    await writeFile(join(dir, 'momo-checkout.socket'), await guideBlock('momo-checkout.socket'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const verify = async (text: string) => {
    const file = join(dir, 'momo-checkout.service');
    await writeFile(file, text);
    return spawnSync(systemdAnalyze, ['verify', '--man=no', file], { encoding: 'utf8' });
  };

  it('passes systemd-analyze verify with nothing to say', async () => {
    const result = await verify(substitute(unit, [['/srv/shop', dir]]));
    assert.equal(result.status, 0, result.stderr);
    assert.equal(`${result.stdout}${result.stderr}`.trim(), '');
  });

  it('passes systemd-analyze verify with its socket unit beside it (section 3), nothing to say', async () => {
    await writeFile(join(dir, 'momo-checkout.service'), substitute(unit, [['/srv/shop', dir]]));
    const socket = join(dir, 'momo-checkout.socket');
    const result = spawnSync(systemdAnalyze, ['verify', '--man=no', socket, join(dir, 'momo-checkout.service')], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(`${result.stdout}${result.stderr}`.trim(), '');
    const broken = join(dir, 'broken.socket');
    await writeFile(broken, (await guideBlock('momo-checkout.socket')).replace('Backlog=4096', 'Backlog=many'));
    assert.match(spawnSync(systemdAnalyze, ['verify', '--man=no', broken], { encoding: 'utf8' }).stderr, /broken\.socket:\d+: Failed to parse unsigned value/, 'verify would name a bad setting');
  });

  it("passes systemd-analyze verify as section 8's template pair, one instance per process (3000 and 3001), nothing to say", async () => {
    const templates = await mkdtemp(join(dir, 'templates-'));
    await writeFile(join(templates, 'momo-checkout@.socket'), await guideBlock('momo-checkout@.socket'));
    // Section 3's service with section 8's [Unit] section, as the guide says to write it.
    const service = substitute(unit, [['/srv/shop', dir]]);
    const unitSection = service.slice(0, service.indexOf('\n[Service]\n'));
    assert.match(unitSection, /^\[Unit\]\n/, "section 3's service opens with its [Unit] section");
    await writeFile(join(templates, 'momo-checkout@.service'), service.replace(unitSection, await guideBlock('momo-checkout@.service-unit')));
    // verify loads a template from the instance's folder: each process's socket and service.
    const instances = ['3000', '3001'].flatMap((port) => [join(templates, `momo-checkout@${port}.socket`), join(templates, `momo-checkout@${port}.service`)]);
    const result = spawnSync(systemdAnalyze, ['verify', '--man=no', ...instances], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(`${result.stdout}${result.stderr}`.trim(), '');
    // Each service needs its own socket: without the socket template, verify names the one missing.
    await rm(join(templates, 'momo-checkout@.socket'));
    assert.match(spawnSync(systemdAnalyze, ['verify', '--man=no', instances[3]!], { encoding: 'utf8' }).stderr, /Unit momo-checkout@3001\.socket not found/);
  });

  it("is rated under 3.0 of 10 by systemd-analyze security (1.9, \"OK\", with systemd 252)", async () => {
    const file = join(dir, 'momo-checkout.service');
    await writeFile(file, substitute(unit, [['/srv/shop', dir]]));
    // --threshold is on the 0-100 scale behind the printed 0.0-10.0 one; above it, the exit code is 1.
    const result = spawnSync(systemdAnalyze, ['security', '--offline=true', '--threshold=30', '--no-pager', file], { encoding: 'utf8' });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
    assert.match(result.stdout, /Overall exposure level for momo-checkout\.service: [0-2]\.\d/);
  });

  it('would be caught with a setting systemd does not know, or a missing program', async () => {
    const unknown = await verify(substitute(unit, [['/srv/shop', dir], ['NoNewPrivileges=yes', 'NoNewPrivileges=maybe']]));
    assert.match(unknown.stderr, /Failed to parse boolean value/);
    const missing = await verify(substitute(unit, [['/srv/shop', join(dir, 'nowhere')]]));
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /is not executable/);
  });

  it('keeps the file store writable, restarts whatever ended the process, and needs its socket (the guide, section 3)', () => {
    const settings = new Map(unit.split('\n').filter((line) => /^\w+=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    assert.equal(settings.get('StateDirectory'), 'momo-checkout');
    assert.match(settings.get('Environment') ?? '', /MOMO_DATA_DIR=\/var\/lib\/momo-checkout(\s|$)/, 'the store in the state folder, the one writable path under ProtectSystem=strict');
    assert.equal(settings.get('ProtectSystem'), 'strict');
    assert.equal(settings.get('Restart'), 'always');
    assert.equal(settings.get('Requires'), 'momo-checkout.socket', 'the socket holds the port while the service restarts');
    assert.match(settings.get('ExecStart') ?? '', /^\/srv\/shop\/node_modules\/\.bin\/momo-checkout serve$/, 'the program itself, so the socket reaches it (LISTEN_PID)');
    assert.equal(settings.get('NoNewPrivileges'), 'yes');
    assert.equal(settings.has('MemoryDenyWriteExecute'), false, "Node's JIT needs writable executable memory");
    assert.equal(settings.get('KillSignal'), 'SIGTERM');
  });

  it('reads an environment file that serve accepts, one NAME=value per line (systemd keeps a trailing # in the value)', async () => {
    const lines = (await guideBlock('env')).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    for (const line of lines) assert.match(line, /^[A-Z][A-Z0-9_]*=[^\s#]+$/, `an environment file line systemd reads as written: ${line}`);
    const env = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    const config = standaloneOptionsFromEnv(substituteEnv(env, { MOMO_SERVER_SECRET: 'a'.repeat(64) }));
    assert.deepEqual(config.options.trustProxy, ['127.0.0.1']);
    assert.equal(config.options.publicUrl, 'https://shop.example/momo');
    assert.deepEqual([config.host, config.port], ['127.0.0.1', 3000]);
  });
});

/** The guide's `replace-me` values given real-looking ones where serve checks their form. */
function substituteEnv(env: Record<string, string>, values: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(values)) assert.equal(env[name], 'replace-me', `the guide's ${name} is a placeholder`);
  return { ...env, ...values };
}
