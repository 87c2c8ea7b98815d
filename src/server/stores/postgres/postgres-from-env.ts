/**
 * The Postgres store's options read from the environment (`serve`, `payments`, the doctor):
 *
 * - `MOMO_POSTGRES_URL`: `postgres://user:password@host:5432/database`, with `?sslmode=require`,
 *   `verify-ca` or `verify-full` (and `sslrootcert=/path/ca.pem`) as the host asks;
 * - `MOMO_POSTGRES_SCHEMA`: the schema of the store's tables (default `momo_checkout`);
 * - `MOMO_POSTGRES_CA_FILE`: the CA certificate (PEM) that signed the server's certificate;
 * - `MOMO_POSTGRES_POOL_SIZE`: most connections per process (default 10);
 * - `MOMO_POSTGRES_STATEMENT_TIMEOUT_MS`: a statement's longest run (default 5000).
 */
import { CompanionConfigError } from '../../config-error.js';
import type { PostgresStoreOptions } from './postgres-store.js';

function positiveInteger(env: Record<string, string | undefined>, name: string, example: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new CompanionConfigError(`${name}=${text} is not a whole number above 0: write e.g. ${name}=${example}, or leave it out for the default.`);
  return value;
}

export function postgresOptionsFromEnv(env: Record<string, string | undefined>): PostgresStoreOptions & { url: string } {
  const url = env.MOMO_POSTGRES_URL?.trim();
  if (!url) throw new CompanionConfigError('MOMO_STORE=postgres needs MOMO_POSTGRES_URL, e.g. postgres://shop:password@127.0.0.1:5432/shop.');
  const schema = env.MOMO_POSTGRES_SCHEMA?.trim();
  const caFile = env.MOMO_POSTGRES_CA_FILE?.trim();
  const maxConnections = positiveInteger(env, 'MOMO_POSTGRES_POOL_SIZE', '10');
  const statementTimeoutMs = positiveInteger(env, 'MOMO_POSTGRES_STATEMENT_TIMEOUT_MS', '5000');
  return {
    url,
    ...(schema ? { schema } : {}),
    ...(caFile ? { caFile } : {}),
    ...(maxConnections ? { maxConnections } : {}),
    ...(statementTimeoutMs ? { statementTimeoutMs } : {}),
  };
}
