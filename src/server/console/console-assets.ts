/**
 * The console's script, built from `src/console/` by `npm run build:console` into the package's
 * `dist/browser/momo-console.js` (scripts/build-console.ts). The companion reads it from there, or
 * from `consoleAssetsDir` (MOMO_CONSOLE_ASSETS_DIR: the demo and the tests build it into a folder of
 * their own, as the demo does with the element). Read once, then served from memory.
 *
 * `node:fs` through `process.getBuiltinModule`, never imported, so the companion's bundle for another
 * runtime stays clean: there, give the folder's file some other way or leave the console off.
 */
import type * as NodeFs from 'node:fs/promises';

export const consoleScriptName = 'momo-console.js';

/** The package's `dist/browser/`: the same folder whether this module runs from `dist/server/console/` or from `src/server/console/` (tsx). */
export const defaultConsoleAssetsDir = (): string => new URL('../../../dist/browser/', import.meta.url).pathname;

export type ConsoleScript = { ok: true; code: Uint8Array } | { ok: false; reason: string };

export function createConsoleScriptReader(dir: string = defaultConsoleAssetsDir()): () => Promise<ConsoleScript> {
  let read: Promise<ConsoleScript> | undefined;
  return () => {
    read ??= load(dir).then((found) => {
      // A missing build is said every time it is asked for, and found once it is there.
      if (!found.ok) read = undefined;
      return found;
    });
    return read;
  };
}

async function load(dir: string): Promise<ConsoleScript> {
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = nodeProcess?.getBuiltinModule?.('node:fs/promises') as typeof NodeFs | undefined;
  const path = `${dir.replace(/\/$/, '')}/${consoleScriptName}`;
  if (!fs) return { ok: false, reason: `this runtime has no node:fs to read ${path}` };
  try {
    return { ok: true, code: new Uint8Array(await fs.readFile(path)) };
  } catch {
    return { ok: false, reason: `${path} is not there: run npm run build:console, or set MOMO_CONSOLE_ASSETS_DIR to the folder that holds ${consoleScriptName}` };
  }
}
