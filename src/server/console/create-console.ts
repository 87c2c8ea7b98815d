/**
 * The console, put together from the companion's options: it exists only when something can sign
 * in to it (a server secret, or a console password); otherwise none of its paths answer.
 */
import { createConsoleScriptReader } from './console-assets.js';
import { createConsoleRoutes, type ConsoleDeps, type ConsoleRoutes } from './console-routes.js';
import { createConsoleSessions } from './console-session.js';

/** The companion's options the console reads (`CompanionOptions` documents them). */
export interface ConsoleOptions {
  serverSecret?: string | undefined;
  consolePassword?: string | undefined;
  consoleSessionTtlMs?: number | undefined;
  consoleAssetsDir?: string | undefined;
  refunds?: boolean | undefined;
}

export const defaultConsoleSessionTtlMs = 8 * 3_600_000;

export function createConsole(
  options: ConsoleOptions,
  deps: Omit<ConsoleDeps, 'sessions' | 'script' | 'refunds'>,
): ConsoleRoutes | undefined {
  const secrets = [options.serverSecret, options.consolePassword].filter((secret): secret is string => typeof secret === 'string' && secret !== '');
  if (secrets.length === 0) return undefined;
  return createConsoleRoutes({
    ...deps,
    refunds: options.refunds === true,
    sessions: createConsoleSessions({ secrets, ttlMs: options.consoleSessionTtlMs ?? defaultConsoleSessionTtlMs, now: deps.now }),
    script: createConsoleScriptReader(options.consoleAssetsDir),
  });
}
