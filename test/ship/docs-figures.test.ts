/**
 * Issue 25 §6: the sizes docs/embedding.md gives for the script-tag file are the build's, read
 * from it (rounded to the KB as written), not remembered.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtOnce, removeBuild } from './built.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('docs/embedding.md figures', () => {
  after(removeBuild);

  it("state the script-tag file's gzip and raw sizes as built", async () => {
    const doc = readFileSync(join(root, 'docs', 'embedding.md'), 'utf8');
    const stated = /It is (\d+) KB with gzip, (\d+) KB without/.exec(doc);
    assert.ok(stated, 'docs/embedding.md says "It is N KB with gzip, M KB without"');
    const iife = (await builtOnce()).files.find((file) => file.format === 'iife')!;
    assert.deepEqual([Number(stated[1]), Number(stated[2])], [Math.round(iife.gzipBytes / 1024), Math.round(iife.bytes / 1024)]);
  });
});
