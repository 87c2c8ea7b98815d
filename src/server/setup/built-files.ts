/**
 * Reading the package's built browser files (`dist/browser/`: the console's script, the element's
 * script-tag file and languages) from the companion, once. Shared by the console's assets and a
 * payment link's page, so both read the same way:
 *
 * - `node:fs` through `process.getBuiltinModule`, never imported, so the companion's bundle for
 *   another runtime stays clean: there, the reader answers why it cannot read instead of failing to
 *   load;
 * - a found read is kept and served from memory; a missing build is said every time it is asked
 *   for, and found once it is there (a shop that runs `npm run build` after starting).
 */
import type * as NodeFs from 'node:fs/promises';
import { nodeBuiltin } from '../../contract/node-builtin.js';

/** What a read gives: the files' content, or the sentence saying why not and what to do. */
export type BuiltFilesRead<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** The package's `dist/browser/`: the same folder whether this runs from `dist/server/<part>/` or from `src/server/<part>/` (tsx). */
export const packageBrowserDir = (): string => new URL('../../../dist/browser/', import.meta.url).pathname;

/** `node:fs/promises` where the runtime has it (Node, Bun, Deno), else undefined. */
export function builtinFs(): typeof NodeFs | undefined {
  return nodeBuiltin<typeof NodeFs>('node:fs/promises');
}

/** `load` run once when it finds its files, and again on the next ask while it does not. */
export function readOnceFound<T>(load: () => Promise<BuiltFilesRead<T>>): () => Promise<BuiltFilesRead<T>> {
  let read: Promise<BuiltFilesRead<T>> | undefined;
  return () => {
    read ??= load().then((found) => {
      if (!found.ok) read = undefined;
      return found;
    });
    return read;
  };
}
