// `node --import` this (after tsx) to make `momo-checkout serve` load slowly, as on a busy machine:
// the CLI's import of commands/serve.js (serve.ts from source) waits SLOW_SERVE_LOAD_MS (default 1,500) and writes
// "loading serve" to standard error first, so that a test can send a signal during the load.
import { register } from 'node:module';

register('./slow-serve-hooks.mjs', import.meta.url);
