/**
 * The doctor's store check: the store the companion would open from this environment opens and
 * answers, and would not lose payments here (a memory store in production, a file on a platform
 * whose disk does not last).
 */
import type { SetupCheck } from '../setup/setup-checks.js';
import { openStoreFromEnv, storeRisk } from '../stores/store-from-env.js';

export async function storeCheck(env: Record<string, string | undefined>): Promise<SetupCheck> {
  const name = 'store';
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
