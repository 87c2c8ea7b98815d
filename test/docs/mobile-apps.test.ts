/**
 * docs/mobile-apps.md quotes examples/mobile-apps/ as it is, and the TypeScript ones (the shop's
 * backend against the companion's own types, the React Native screen against react-native-webview's
 * props) type-check. The Kotlin, Swift and Dart ones have no compiler here: the page says so.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = ['server/app-checkout.ts', 'android/CheckoutActivity.kt', 'ios/CheckoutViewController.swift', 'flutter/checkout_page.dart', 'react-native/MomoCheckoutScreen.tsx'];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('docs/mobile-apps.md', () => {
  it('quotes each example as it is', () => {
    const text = readFileSync(join(root, 'docs/mobile-apps.md'), 'utf8');
    for (const example of examples) {
      const file = `examples/mobile-apps/${example}`;
      const quoted = new RegExp(`<!-- file: ${escape(file)} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n`).exec(text);
      assert.ok(quoted, `docs/mobile-apps.md quotes ${file}`);
      assert.equal(quoted[1], readFileSync(join(root, file), 'utf8'), `the quote of ${file} is the file as it is: paste it again`);
    }
  });

  it('has TypeScript examples that type-check', async () => {
    // The compiler over a project of its own: scripts/test-tiers.ts puts this file in the full tier (about 20 s).
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const run = await promisify(execFile)(tsc, ['-p', join(root, 'examples/mobile-apps/tsconfig.json')], { cwd: root }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    assert.equal(run, '', 'tsc -p examples/mobile-apps/tsconfig.json');
  });
});
