/**
 * The Node.js the companion runs on. The floor is the file store's driver's: better-sqlite3 13
 * (Node-API, prebuilt binaries inside the package) declares `node >= 22`, and Node 20 left
 * support in April 2026. package.json's `engines.node` says the same floor (a test holds the two
 * equal). `doctor` reports the version and `serve` refuses to start below the floor, because a
 * companion that cannot open its store, or dies later, loses the notifications the service sends
 * only once.
 */
import type { SetupCheck } from '../setup/setup-checks.js';

export const minimumNodeMajor = 22;
/** The Node merchants are advised to run: the active LTS, on which the project is developed and tested. */
export const recommendedNodeMajor = 24;

export function nodeCheck(version: string = process.versions.node): SetupCheck {
  const name = 'node';
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (!Number.isInteger(major) || major < minimumNodeMajor) {
    return {
      name,
      status: 'error',
      message:
        `Node ${version} is too old: momo-checkout needs Node ${minimumNodeMajor} or newer. ` +
        `Install Node ${recommendedNodeMajor} (the active LTS, from nodejs.org or your platform's packages), then reinstall with \`npm ci\`.`,
    };
  }
  return { name, status: 'ok', message: `Node ${version} (needs ${minimumNodeMajor} or newer)` };
}
