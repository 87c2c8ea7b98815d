/**
 * The console's script, built from `src/console/` by `npm run build:console` into the package's
 * `dist/browser/momo-console.js` (scripts/build-console.ts). The companion reads it from there, or
 * from `consoleAssetsDir` (MOMO_CONSOLE_ASSETS_DIR: the demo and the tests build it into a folder of
 * their own, as the demo does with the element). Read once, then served from memory.
 * How it is read (once, `node:fs` never imported): setup/built-files.ts. In another runtime, give
 * the folder's file some other way or leave the console off.
 */
import { builtinFs, packageBrowserDir, readOnceFound, type BuiltFilesRead } from '../setup/built-files.js';

export const consoleScriptName = 'momo-console.js';

/** The package's `dist/browser/`. */
export const defaultConsoleAssetsDir = packageBrowserDir;

export type ConsoleScript = BuiltFilesRead<{ code: Uint8Array }>;

export function createConsoleScriptReader(dir: string = defaultConsoleAssetsDir()): () => Promise<ConsoleScript> {
  return readOnceFound(() => load(dir));
}

async function load(dir: string): Promise<ConsoleScript> {
  const fs = builtinFs();
  const path = `${dir.replace(/\/$/, '')}/${consoleScriptName}`;
  if (!fs) return { ok: false, reason: `this runtime has no node:fs to read ${path}` };
  try {
    return { ok: true, code: new Uint8Array(await fs.readFile(path)) };
  } catch {
    return { ok: false, reason: `${path} is not there: run npm run build:console, or set MOMO_CONSOLE_ASSETS_DIR to the folder that holds ${consoleScriptName}` };
  }
}
