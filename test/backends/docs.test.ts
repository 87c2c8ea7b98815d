/** docs/backends.md quotes the files the backend tests run, verbatim: the doc cannot drift from tested code. */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { root } from './harness.js';

describe('docs/backends.md', () => {
  it('quotes every snippet file verbatim, under its file marker', async () => {
    const doc = await readFile(join(root, 'docs/backends.md'), 'utf8');
    const files: string[] = [];
    for (const language of ['php', 'python']) {
      for (const name of await readdir(join(root, 'docs/backends', language))) {
        if (/\.(php|py)$/.test(name)) files.push(`docs/backends/${language}/${name}`);
      }
    }
    assert.ok(files.length >= 5, `snippet files found: ${files.join(', ')}`);
    for (const file of files) {
      const quoted = new RegExp(`<!-- file: ${file.replace(/[.]/g, '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n`).exec(doc);
      assert.ok(quoted, `docs/backends.md quotes ${file} (<!-- file: ${file} --> then a fenced block)`);
      assert.equal(quoted[1], await readFile(join(root, file), 'utf8'), `the quote of ${file} is the file as it is: paste it again`);
    }
  });
});
