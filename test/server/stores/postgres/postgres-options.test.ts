/**
 * The Postgres store's configuration: TLS modes as libpq means them (what managed Postgres asks
 * for), the CA file, pool size and statement timeout from the environment, and clear refusals.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { poolConfig } from '../../../../src/server/stores/postgres/postgres-connection.js';
import { postgresOptionsFromEnv } from '../../../../src/server/stores/postgres/postgres-from-env.js';
import { openStoreFromEnv } from '../../../../src/server/stores/store-from-env.js';

const url = 'postgres://shop:s3cret@db.example.com:5432/shop';
const ca = join(tmpdir(), `momo-ca-${process.pid}.pem`);
writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');

describe('postgres options', () => {
  it('maps sslmode as libpq does, and takes it out of the URL given to the driver', () => {
    assert.equal(poolConfig({ url }).ssl, false, 'no sslmode: a local server without TLS');
    assert.deepEqual(poolConfig({ url: `${url}?sslmode=require` }).ssl, { rejectUnauthorized: false }, 'require: encrypted, certificate not checked');
    const verifyFull = poolConfig({ url: `${url}?sslmode=verify-full&sslrootcert=${ca}` });
    assert.deepEqual(verifyFull.ssl, { ca: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' }, 'verify-full: the CA and the host name are checked');
    assert.equal(verifyFull.connectionString, url, 'sslmode and sslrootcert are not left for the driver to reinterpret');
    const verifyCa = poolConfig({ url, sslMode: 'verify-ca', caFile: ca }).ssl as { ca: string; checkServerIdentity: () => undefined };
    assert.match(verifyCa.ca, /BEGIN CERTIFICATE/);
    assert.equal(verifyCa.checkServerIdentity(), undefined, 'verify-ca: the chain only, not the host name');
  });

  it('refuses an unknown sslmode, an unreadable CA file and a URL of another kind, saying what to write', () => {
    assert.throws(() => poolConfig({ url: `${url}?sslmode=maybe` }), /sslmode=maybe is not one PostgreSQL knows: use disable, require, verify-ca or verify-full/);
    assert.throws(() => poolConfig({ url, sslMode: 'verify-full', caFile: '/nonexistent/ca.pem' }), /Cannot read the PostgreSQL CA file \/nonexistent\/ca.pem .*MOMO_POSTGRES_CA_FILE/);
    assert.throws(() => poolConfig({ url: 'mysql://shop@db/shop' }), /starts with mysql:\/\/: write it as postgres:\/\//);
  });

  it('reads the pool size, statement timeout, schema and CA file from the environment', () => {
    const options = postgresOptionsFromEnv({
      MOMO_POSTGRES_URL: url,
      MOMO_POSTGRES_SCHEMA: 'payments',
      MOMO_POSTGRES_CA_FILE: ca,
      MOMO_POSTGRES_POOL_SIZE: '4',
      MOMO_POSTGRES_STATEMENT_TIMEOUT_MS: '2500',
    });
    assert.deepEqual(options, { url, schema: 'payments', caFile: ca, maxConnections: 4, statementTimeoutMs: 2500 });
    const config = poolConfig(options);
    assert.equal(config.max, 4);
    assert.equal(config.statement_timeout, 2500);
    assert.equal(poolConfig({ url }).max, 10);
    assert.equal(poolConfig({ url }).statement_timeout, 5000);
    assert.throws(() => postgresOptionsFromEnv({ MOMO_POSTGRES_URL: url, MOMO_POSTGRES_POOL_SIZE: 'lots' }), /MOMO_POSTGRES_POOL_SIZE=lots is not a whole number above 0: write e.g. MOMO_POSTGRES_POOL_SIZE=10/);
  });

  it('refuses both MOMO_POSTGRES_URL and MOMO_REDIS_URL unless MOMO_STORE says which', async () => {
    await assert.rejects(openStoreFromEnv({ MOMO_POSTGRES_URL: url, MOMO_REDIS_URL: 'redis://127.0.0.1:1' }), /Both MOMO_POSTGRES_URL and MOMO_REDIS_URL are set: .*MOMO_STORE=postgres or MOMO_STORE=redis/);
    await assert.rejects(openStoreFromEnv({ MOMO_STORE: 'postgres' }), /MOMO_STORE=postgres needs MOMO_POSTGRES_URL/);
  });
});
