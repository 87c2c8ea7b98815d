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

/**
 * Replaces each placeholder everywhere, all in one pass over the text (the longest first where two
 * start at one place): a value put in is never read again as a placeholder. One after the other,
 * a free port such as 40109 became 413339 when `127.0.0.1:4010` was replaced next (CI saw it).
 * Fails when a placeholder is not in the text.
 */
export function substitute(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  for (const [from] of pairs) {
    assert.ok(text.includes(from), `the guide's block no longer holds the placeholder ${JSON.stringify(from)}: update docs/deploy.md's table and the test together`);
  }
  const values = new Map(pairs);
  const placeholders = [...values.keys()].sort((a, b) => b.length - a.length).map((from) => from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(placeholders.join('|'), 'g'), (from) => values.get(from)!);
}

/** Fails (never skips) when a program the test drives is missing, naming the Debian package. */
export function requireProgram(path: string, args: string[], debianPackage: string): void {
  const probe = existsSync(path) ? spawnSync(path, args, { encoding: 'utf8' }) : undefined;
  if (!probe || probe.error || probe.status !== 0) {
    assert.fail(`${path} is missing or does not run: install Debian's ${debianPackage} package (apt-get install ${debianPackage}), as scripts/ensure-test-tools.sh does.`);
  }
}

/** An environment file's `NAME=value` lines (comments and blank lines skipped), as systemd reads them. */
export function parseEnvFile(text: string): Record<string, string> {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  for (const line of lines) assert.match(line, /^[A-Z][A-Z0-9_]*=[^\s#]+$/, `an environment file line systemd reads as written: ${line}`);
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/**
 * A shell command written `NAME=value ... command args` over continued lines: its variables and
 * its words. Only that form is accepted (no quotes, no expansions), so what runs is what is written.
 */
export function parseShellCommand(text: string): { env: Record<string, string>; argv: string[] } {
  const words = text.replace(/\\\n/g, ' ').trim().split(/\s+/);
  assert.ok(words.every((word) => !/["'$`;|&]/.test(word)), `a plain command, no quoting or expansion: ${text}`);
  const env: Record<string, string> = {};
  let at = 0;
  for (; at < words.length && /^[A-Z][A-Z0-9_]*=/.test(words[at]!); at++) env[words[at]!.slice(0, words[at]!.indexOf('='))] = words[at]!.slice(words[at]!.indexOf('=') + 1);
  return { env, argv: words.slice(at) };
}

/**
 * Replaces the block opened by the line `opening` (written with its indent), up to the line that
 * closes it at the same indent, with what `replacement` makes of it: a guide's "this block
 * becomes" and "add this after that block". Fails when the block is not there.
 */
export function replaceBlock(text: string, opening: string, replacement: (block: string) => string): string {
  const found = text.startsWith(`${opening}\n`) ? -1 : text.indexOf(`\n${opening}\n`);
  const start = found + 1;
  assert.ok(text.startsWith(`${opening}\n`) || found >= 0, `the guide's file no longer has a block opened by ${JSON.stringify(opening)}: update docs/deploy.md and the test together`);
  const indent = /^\s*/.exec(opening)![0];
  const close = text.indexOf(`\n${indent}}\n`, start);
  assert.ok(close > start, `the block opened by ${JSON.stringify(opening)} is closed at its indent`);
  const end = close + indent.length + 2;
  return `${text.slice(0, start)}${replacement(text.slice(start, end))}${text.slice(end)}`;
}
