/**
 * docs/deploy.md's configuration blocks, read verbatim: each follows a `<!-- deploy-test: NAME -->`
 * line. The tests change only the placeholders the guide lists ("What the tests replace"), each
 * of which must be found, so a guide edited out from under a test fails it instead of testing
 * something else.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const guidePath = join(root, 'docs/deploy.md');

export async function guideText(): Promise<string> {
  return readFile(guidePath, 'utf8');
}

/** The fenced block after `<!-- deploy-test: name -->`, without its fences. */
export async function guideBlock(name: string): Promise<string> {
  const text = await guideText();
  const marker = `<!-- deploy-test: ${name} -->\n`;
  const at = text.indexOf(marker);
  assert.ok(at >= 0, `docs/deploy.md has no block marked ${marker.trim()}`);
  const fence = /^```[\w-]*\n([\s\S]*?)\n```$/m.exec(text.slice(at + marker.length));
  assert.ok(fence && fence.index === 0, `the line after ${marker.trim()} in docs/deploy.md opens a fenced block`);
  return fence[1]!;
}

/** Replaces each placeholder everywhere; fails when one is not in the text. */
export function substitute(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  let result = text;
  for (const [from, to] of pairs) {
    assert.ok(result.includes(from), `the guide's block no longer holds the placeholder ${JSON.stringify(from)}: update docs/deploy.md's table and the test together`);
    result = result.split(from).join(to);
  }
  return result;
}

/** Fails (never skips) when a program the test drives is missing, naming the Debian package. */
export function requireProgram(path: string, args: string[], debianPackage: string): void {
  const probe = existsSync(path) ? spawnSync(path, args, { encoding: 'utf8' }) : undefined;
  if (!probe || probe.error || probe.status !== 0) {
    assert.fail(`${path} is missing or does not run: install Debian's ${debianPackage} package (apt-get install ${debianPackage}), as scripts/ensure-test-tools.sh does.`);
  }
}
