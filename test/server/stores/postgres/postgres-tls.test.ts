/**
 * TLS to a real PostgreSQL serving a certificate signed by a CA of the test's own (made with
 * openssl), as managed PostgreSQL does: `sslmode=verify-full` with the CA connects, and refuses a
 * server whose certificate another CA signed; `require` connects without a CA
 * (encrypted, not verified, as libpq); the connection is encrypted (pg_stat_ssl).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPostgresStore } from '../../../../src/server/stores/postgres/postgres-store.js';
import { silentLogger } from '../../../../src/server/log.js';
import { createDatabase, startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';

const dir = mkdtempSync(join(tmpdir(), 'momo-pg-tls-'));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A CA, and a server certificate it signs for 127.0.0.1 and localhost. */
function makeCertificates(name: string): { ca: string; cert: string; key: string } {
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name} test CA`, '-keyout', `${name}-ca.key`, '-out', `${name}-ca.crt`);
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', `${name}-server.key`, '-out', `${name}-server.csr`);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', `${name}-server.csr`, '-CA', `${name}-ca.crt`, '-CAkey', `${name}-ca.key`, '-CAcreateserial', '-days', '2', '-extfile', 'san.ext', '-out', `${name}-server.crt`);
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return { ca: join(dir, `${name}-ca.crt`), cert: read(`${name}-server.crt`), key: read(`${name}-server.key`) };
}

let server: PostgresServer;
let ours: ReturnType<typeof makeCertificates>;
let strangers: ReturnType<typeof makeCertificates>;
before(async () => {
  ours = makeCertificates('ours');
  strangers = makeCertificates('strangers');
  server = await startPostgresServer({ tls: { cert: ours.cert, key: ours.key } });
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('postgres store over TLS', () => {
  it('verify-full with the CA: connects, encrypted', async () => {
    const url = `${server.urlOf(createDatabase(server))}?sslmode=verify-full&sslrootcert=${ours.ca}`;
    const store = await createPostgresStore({ url, log: silentLogger });
    try {
      await store.ping();
      const encrypted = (plain: boolean) => Number(server.psql(`SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE s.ssl = ${!plain} AND a.application_name = 'momo-checkout'`).trim());
      assert.ok(encrypted(false) >= 1, 'the store’s connections are encrypted');
      assert.equal(encrypted(true), 0, 'and none is plain');
    } finally {
      await store.close?.();
    }
  });

  it('verify-full and verify-ca refuse a server whose certificate another CA signed', async () => {
    const database = createDatabase(server);
    for (const mode of ['verify-full', 'verify-ca']) {
      await assert.rejects(createPostgresStore({ url: `${server.urlOf(database)}?sslmode=${mode}`, caFile: strangers.ca, log: silentLogger }), /Cannot use PostgreSQL at .*: (self.signed|unable to verify|unable to get local issuer)/i, mode);
    }
  });

  it('require without a CA: connects (encrypted, the certificate not checked, as libpq)', async () => {
    const store = await createPostgresStore({ url: `${server.urlOf(createDatabase(server))}?sslmode=require`, log: silentLogger });
    await store.ping();
    await store.close?.();
  });
});
