/**
 * `scripts/ensure-node.sh` (what `.ci/run` and a contributor use to get Node 24 and 22): the
 * machine's own Node when its major is the one asked, a cached build when one is there, and a
 * clear refusal of a malformed version. (Fetching from the npm registry is what `.ci/run` does on
 * every fresh machine.)
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/ensure-node.sh', import.meta.url));
const cache = mkdtempSync(join(tmpdir(), 'node-cache-'));
after(() => rmSync(cache, { recursive: true, force: true }));

const run = (major: string) => spawnSync('/bin/bash', [script, major], { env: { PATH: process.env.PATH ?? '', HOME: cache, MOMO_NODE_CACHE: cache }, encoding: 'utf8' });

describe('scripts/ensure-node.sh', () => {
  it("gives the folder of the machine's own node when its major is the one asked", () => {
    const result = run(process.versions.node.split('.')[0]!);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), dirname(process.execPath));
  });

  it('gives a cached build of another major without fetching it again', () => {
    const other = process.versions.node.startsWith('22.') ? '24' : '22';
    mkdirSync(join(cache, other, 'bin'), { recursive: true });
    symlinkSync(process.execPath, join(cache, other, 'bin', 'node'));
    const result = run(other);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), join(cache, other, 'bin'));
    assert.doesNotMatch(result.stderr, /fetching/);
  });

  it('refuses a version that is not a major number, saying what to give', () => {
    const result = run('lts');
    assert.equal(result.status, 2);
    assert.match(result.stderr, /give a major version, e\.g\. 24 \(got "lts"\)/);
  });
});
