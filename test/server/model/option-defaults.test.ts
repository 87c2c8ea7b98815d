/**
 * The companion's defaults are written once (src/server/model/option-defaults.ts): no file of the
 * server falls back to a number of its own for an option the table holds, and what options.ts
 * tells the shop in words is the table's value.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { companionDefaults, companionLimitDefaults } from '../../../src/server/model/option-defaults.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const server = join(root, 'src/server');
const tableFile = join(server, 'model/option-defaults.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const optionNames = [...Object.keys(companionDefaults), ...Object.keys(companionLimitDefaults)];

/**
 * Lines that fall back to a literal for one of the table's options (`options.storeTimeoutMs ?? 4_000`),
 * and the delivery timeout under the names its builders take it (`timeoutMs ?? 10_000` in deliveries/).
 */
export function literalFallbacks(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): string[] {
  const byName = new RegExp(`\\.(${optionNames.join('|')})\\s*\\?\\?\\s*[\\d{(]`);
  const deliveryTimeout = /timeoutMs\s*\?\?\s*10_?000\b/;
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .filter((line) => byName.test(line) || (file.includes('/deliveries/') && deliveryTimeout.test(line)))
      .map((line) => `${relative(root, file)}: ${line.trim()}`),
  );
}

/** How options.ts says a default: `10 s`, `5 minutes`, `4,000`, `20 then 20/min`. */
function inWords(value: number | { burst: number; perMinute: number }, name: string): string {
  if (typeof value === 'object') return `${value.burst} then ${value.perMinute}/min`;
  if (!name.endsWith('Ms')) return value.toLocaleString('en');
  return value % 60_000 === 0 ? `${value / 60_000} minutes` : `${value / 1000} s`;
}

/** The JSDoc right above `name?:` in options.ts. */
function docOf(options: string, name: string): string {
  const at = options.search(new RegExp(`\\n\\s*${name}\\?:`));
  assert.ok(at > 0, `options.ts declares ${name}`);
  const before = options.slice(0, at);
  return before.slice(before.lastIndexOf('/**'));
}

describe('the companion defaults, in one place', () => {
  it('has no file of src/server fall back to its own number for an option the table holds', () => {
    const files = sources(server).filter((file) => file !== tableFile);
    assert.deepEqual(literalFallbacks(files), []);
  });

  it('would find the delivery timeout typed again, or a limit', () => {
    const planted = new Map([
      [join(server, 'deliveries/delivery-worker.ts'), '    timeoutMs: options.timeoutMs ?? 10_000,'],
      [join(server, 'payer-routes.ts'), '  total: limits.streams ?? 4_000,'],
      [join(server, 'companion.ts'), '  const deadline = storeDeadline(options.storeTimeoutMs ?? companionDefaults.storeTimeoutMs, log);'],
    ]);
    assert.deepEqual(literalFallbacks([...planted.keys()], (file) => planted.get(file)!), [
      'src/server/deliveries/delivery-worker.ts: timeoutMs: options.timeoutMs ?? 10_000,',
      'src/server/payer-routes.ts: total: limits.streams ?? 4_000,',
    ]);
  });

  it('tells the shop, in options.ts, the value each option takes when left out', () => {
    const options = readFileSync(join(server, 'options.ts'), 'utf8');
    const entries = [...Object.entries(companionDefaults), ...Object.entries(companionLimitDefaults)];
    for (const [name, value] of entries) {
      assert.ok(docOf(options, name).includes(`Default ${inWords(value, name)}`), `options.ts's ${name} should say "Default ${inWords(value, name)}"`);
    }
  });
});
