/**
 * The composition root (docs/architecture.md, rank 8) hands each builder only what it uses: the
 * builders beside createCompanion declare the options they read (`Pick<CompanionOptions, ...>` or a
 * small type of their own), so a builder that starts reading a new option says so in its signature,
 * and a test or another caller can build it from those options alone.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const server = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'src/server');
const builders = ['companion-storage.ts', 'companion-actions.ts', 'payer-routes.ts', 'operator-routes.ts', 'public-address.ts'];

/** The lines where a builder takes the whole options object (`options: CompanionOptions`, `CompanionOptions & {...}`). */
export function wholeOptions(files: readonly string[], read: (file: string) => string = (file) => readFileSync(join(server, file), 'utf8')): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .filter((line) => /\boptions\??:\s*CompanionOptions\b/.test(line))
      .map((line) => `${file}: ${line.trim()}`),
  );
}

describe('the composition root', () => {
  it('hands each builder only the options it reads', () => {
    assert.deepEqual(wholeOptions(builders), []);
  });

  it('would see a builder taking the whole options object again', () => {
    const planted = 'export function payerRoutes(deps: { options: CompanionOptions; log: Logger }) {';
    assert.deepEqual(wholeOptions(['payer-routes.ts'], () => planted), [`payer-routes.ts: ${planted}`]);
  });
});
