/**
 * The doctor's store check: the store the companion would open from this environment opens and
 * answers (for Postgres: the connection, the role's rights and the schema's version, see
 * stores/postgres/postgres-check.ts), and would not lose payments here (a memory store in production, a file on a platform
 * whose disk does not last).
 */
import type { SetupCheck } from '../setup/setup-checks.js';
import { openStoreFromEnv, storeEngineFromEnv, storeRisk } from '../stores/store-from-env.js';
import { checkPostgres } from '../stores/postgres/postgres-check.js';
import { postgresOptionsFromEnv } from '../stores/postgres/postgres-from-env.js';

export async function storeCheck(env: Record<string, string | undefined>): Promise<SetupCheck> {
  const name = 'store';
  let engine;
  try {
    engine = storeEngineFromEnv(env);
  } catch (error) {
    return { name, status: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  // The Postgres store is checked on its own terms (connection, rights, schema version), without migrating.
  if (engine === 'postgres') {
    try {
      const result = await checkPostgres(postgresOptionsFromEnv(env));
      return { name, status: result.ok ? 'ok' : 'error', message: result.messages.join('; ') };
    } catch (error) {
      return { name, status: 'error', message: error instanceof Error ? error.message : String(error) };
    }
  }
  let opened;
  try {
    opened = await openStoreFromEnv(env);
  } catch (error) {
    return { name, status: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  try {
    await opened.store.ping();
    const risk = storeRisk(opened.kind ?? 'custom', env);
    if (risk) return { name, status: 'error', message: risk };
    return { name, status: 'ok', message: `state is kept in ${opened.describe}` };
  } catch (error) {
    return { name, status: 'error', message: `${opened.describe} does not answer: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await opened.store.close?.();
    await opened.hub?.close();
  }
}
