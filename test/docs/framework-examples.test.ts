/**
 * The framework docs quote the example apps that test/frameworks runs, verbatim, each under its
 * file marker: the docs cannot drift from code that type-checks and pays.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const quotes: Record<string, string[]> = {
  'src/adapters/nextjs.md': [
    'examples/nextjs/lib/momo.ts',
    'examples/nextjs/app/momo/[...path]/route.ts',
    'examples/nextjs/next.config.ts',
    'examples/nextjs/app/checkout/page.tsx',
    'examples/nextjs/app/checkout/pay.tsx',
  ],
  'docs/embedding.md': [
    'examples/vue/vite.config.ts',
    'examples/vue/src/env.d.ts',
    'examples/vue/src/MomoPay.vue',
    'examples/svelte/src/app.d.ts',
    'examples/svelte/src/MomoPay.svelte',
  ],
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('framework docs', () => {
  for (const [doc, files] of Object.entries(quotes)) {
    it(`${doc} quotes its example files as they are`, () => {
      const text = readFileSync(join(root, doc), 'utf8');
      for (const file of files) {
        const quoted = new RegExp(`<!-- file: ${escape(file)} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n`).exec(text);
        assert.ok(quoted, `${doc} quotes ${file} (<!-- file: ${file} --> then a fenced block)`);
        assert.equal(quoted[1], readFileSync(join(root, file), 'utf8'), `the quote of ${file} is the file as it is: paste it again`);
      }
    });
  }
});
