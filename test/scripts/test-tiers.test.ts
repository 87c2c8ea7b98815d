/**
 * Issue 42: the quick tier (`npm run test:quick`) holds the unit tests of every folder and none
 * that starts a browser, a program the machine has to provide or `npm pack`; the runtime tier
 * (`npm run test:runtime`, run again on Node 22 by .ci/run) adds the crash tests, PostgreSQL over
 * TLS and the files whose only outside program is npm. The split is read from the files' code
 * (scripts/test-tiers.ts), so these check it on today's files and on new ones.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { splitTiers } from '../../scripts/test-tiers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const listed = spawnSync('/bin/bash', [join(root, 'scripts/test-node.sh'), '--list'], { cwd: root, encoding: 'utf8' });
const files = listed.stdout.split('\n').filter(Boolean);
const { quick, runtime, full } = splitTiers(files);

describe('the quick tier (scripts/test-tiers.ts)', () => {
  it('splits every file of `npm run test:node` into exactly one tier', () => {
    assert.equal(listed.status, 0, listed.stderr);
    assert.ok(files.length > 100, `test-node.sh --list gave ${files.length} files`);
    assert.deepEqual([...quick, ...full].sort(), [...files].sort());
  });

  it('keeps the unit tests of each server folder', () => {
    for (const file of [
      'test/server/commands/doctor-cli.test.ts',
      'test/server/console/console-routes.test.ts',
      'test/server/deliveries/deliveries.test.ts',
      'test/server/http-answers/notification-answers.test.ts',
      'test/server/metrics/metrics.test.ts',
      'test/server/model/notification-kinds.test.ts',
      'test/server/notifications/inbox.test.ts',
      'test/server/page-routes/approval-qr.test.ts',
      'test/server/payments/attempt-ids.test.ts',
      'test/server/refunds/money-goes-back.test.ts',
      'test/server/refunds/refund-kill.test.ts',
      'test/server/server-api/server-api.test.ts',
      'test/server/service-client/malformed-answers.test.ts',
      'test/server/setup/setup-checks.test.ts',
      'test/server/stores/store-engine.test.ts',
      'test/server/stores/memory/memory-store.test.ts',
      'test/server/stores/postgres/postgres-options.test.ts',
      'test/server/stores/sqlite/file-store.test.ts',
      'test/sandbox/pay-in.test.ts',
      'test/contract/webhook-signature/verify.test.ts',
      'test/architecture/source-layers.test.ts',
    ]) {
      assert.ok(quick.includes(file), `${file} should be in the quick tier`);
    }
  });

  it('has a file of every folder of test/server but the Redis one (every test there starts redis-server)', () => {
    const folders = new Set(files.filter((file) => file.startsWith('test/server/')).map((file) => dirname(file)));
    folders.delete('test/server/stores/redis');
    for (const folder of folders) assert.ok(quick.some((file) => dirname(file) === folder), `no quick test in ${folder}`);
  });

  it('leaves the files that start a service, a browser or npm pack, or whose helpers do, to the full tier', () => {
    for (const file of [
      'test/server/stores/redis/redis-store.test.ts', // test/support/redis-server.ts
      'test/server/stores/postgres/postgres-store.test.ts', // test/support/postgres-server.ts
      'test/crash/two-processes.test.ts', // test/support/shared-stores.ts
      'test/server/refunds/refund-race.test.ts',
      'test/server/stores/store-write-probe.test.ts', // redis-cli
      'test/server/metrics/alert-rules.test.ts', // promtool
      'test/deploy/nginx.test.ts', // nginx and Chromium
      'test/deploy/caddy.test.ts',
      'test/deploy/systemd-unit.test.ts', // systemd-analyze
      'test/backends/php.test.ts', // php -S, through test/backends/php-shop.ts
      'test/backends/django.test.ts', // Python and Django
      'test/backends/laravel.test.ts',
      'test/ship/script-tag-in-chromium.test.ts', // playwright-core
      'test/ship/element-install.test.ts', // npm pack, through test/support/packed.ts
      'test/upgrade/pinned-files.test.ts',
      'test/ship/package-surface.test.ts', // tsc over the emitted declarations
      'test/docs/examples.test.ts', // tsc over the documents' examples
    ]) {
      assert.ok(full.includes(file), `${file} should be in the full tier only`);
    }
  });

  describe('the runtime tier, run again on the oldest Node line', () => {
    it('holds every quick file', () => {
      assert.deepEqual(quick.filter((file) => !runtime.includes(file)), []);
    });

    it('holds the crash tests, node:tls and the npm installs', () => {
      for (const file of [
        'test/crash/kill-nine.test.ts',
        'test/crash/two-processes.test.ts',
        'test/crash/postgres-outage.test.ts',
        'test/crash/full-disk.test.ts', // mount
        'test/server/stores/postgres/postgres-tls.test.ts', // node:tls under the PostgreSQL store
        'test/ship/install-scripts.test.ts', // the npm of the Node line
      ]) {
        assert.ok(runtime.includes(file), `${file} should be in the runtime tier`);
      }
    });

    it('leaves out what tests another program\'s side: browsers, shops, proxies, promtool, LibreOffice, the compiler, the engines\' SQL', () => {
      for (const file of [
        'test/deploy/nginx.test.ts',
        'test/deploy/systemd-unit.test.ts',
        'test/backends/php.test.ts',
        'test/backends/django.test.ts',
        'test/server/metrics/alert-rules.test.ts',
        'test/server/server-api/payments-export-libreoffice.test.ts',
        'test/ship/script-tag-in-chromium.test.ts',
        'test/ship/package-surface.test.ts',
        'test/docs/examples.test.ts',
        'test/server/stores/redis/redis-store.test.ts',
        'test/server/stores/postgres/postgres-store.test.ts',
      ]) {
        assert.ok(!runtime.includes(file), `${file} should not be in the runtime tier`);
      }
    });
  });

  describe('a new test file lands in its tier by what it uses (test/scripts/fixtures/tiers/)', () => {
    const probe = (name: string) => `test/scripts/fixtures/tiers/${name}.test.ts.txt`;

    it('quick when it only starts Node, loopback servers and the sandbox, whatever its comments say', () => {
      assert.deepEqual(splitTiers([probe('plain')]), { quick: [probe('plain')], runtime: [probe('plain')], full: [] });
    });

    it('full when a helper it imports starts redis-server', () => {
      assert.deepEqual(splitTiers([probe('redis-helper')]), { quick: [], runtime: [], full: [probe('redis-helper')] });
    });

    it('full when it starts php, drives Chromium, packs or runs the compiler over a project; runtime only when it packs', () => {
      const files = [probe('php'), probe('browser'), probe('pack'), probe('compiler')];
      assert.deepEqual(splitTiers(files), { quick: [], runtime: [probe('pack')], full: files });
    });
  });
});
