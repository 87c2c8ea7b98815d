// The module hooks of slow-serve-load.mjs (they run on the loader's own thread).
import { writeSync } from 'node:fs';

const delayMs = Number(process.env.SLOW_SERVE_LOAD_MS ?? 1_500);

export async function resolve(specifier, context, nextResolve) {
  if (/(^|\/)commands\/serve\.[jt]s$/.test(specifier)) {
    writeSync(2, 'loading serve\n');
    await new Promise((done) => setTimeout(done, delayMs));
  }
  return nextResolve(specifier, context);
}
