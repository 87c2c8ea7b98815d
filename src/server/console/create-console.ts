/**
 * The console, put together from the companion's options: it exists only when something can sign
 * in to it (a server secret, or a console password); otherwise none of its paths answer.
 */
import { createConsoleScriptReader } from './console-assets.js';
import { createConsoleRoutes, type ConsoleDeps, type ConsoleRoutes } from './console-routes.js';
import { createConsoleSessions, createSecretListCheck, type EndedSessions } from './console-session.js';
import type { CheckoutStore } from '../stores/store.js';

/** The companion's options the console reads (`CompanionOptions` documents them). */
export interface ConsoleOptions {
  serverSecret?: string | undefined;
  consolePassword?: string | undefined;
  consoleSessionTtlMs?: number | undefined;
  consoleAssetsDir?: string | undefined;
  refunds?: boolean | undefined;
}

export const defaultConsoleSessionTtlMs = 8 * 3_600_000;

/** The store's signed-out sessions, when it keeps them (the three built-in stores do). */
function endedSessionsIn(store: CheckoutStore): EndedSessions | undefined {
  const { endConsoleSession, isConsoleSessionEnded } = store;
  if (!endConsoleSession || !isConsoleSessionEnded) return undefined;
  return { endConsoleSession: endConsoleSession.bind(store), isConsoleSessionEnded: isConsoleSessionEnded.bind(store) };
}

export function createConsole(
  options: ConsoleOptions,
  deps: Omit<ConsoleDeps, 'sessions' | 'script' | 'refunds' | 'isServerSecret'>,
): ConsoleRoutes | undefined {
  const secrets = [options.serverSecret, options.consolePassword].filter((secret): secret is string => typeof secret === 'string' && secret !== '');
  if (secrets.length === 0) return undefined;
  return createConsoleRoutes({
    ...deps,
    refunds: options.refunds === true,
    sessions: createConsoleSessions({
      secrets,
      ttlMs: options.consoleSessionTtlMs ?? defaultConsoleSessionTtlMs,
      now: deps.now,
      ended: endedSessionsIn(deps.store),
      // The memory store forgets signed-out sessions at a restart: its sessions end there too.
      boundTo: deps.store.volatileId,
    }),
    script: createConsoleScriptReader(options.consoleAssetsDir),
    isServerSecret: options.serverSecret ? createSecretListCheck([options.serverSecret]) : undefined,
  });
}
