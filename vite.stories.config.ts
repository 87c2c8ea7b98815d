/**
 * `npm run test:stories`: the Storybook stories' play functions as vitest tests (Storybook's vitest
 * addon), and the React wrapper's browser tests, in Debian's Chromium through Playwright
 * (TOOLCHAIN.md, "Chromium"; CHROME_PATH overrides the path).
 *
 * The React tests run here rather than under @web/test-runner: React 18 ships CommonJS only, which
 * wtr serves untransformed (no CommonJS plugin is installed); Vite pre-bundles it.
 */
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';

const chromium = playwright({
  launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  // The "Copied" story copies for real: the stories run in vitest's frames, not a focused page of their own.
  contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] },
});

// A fresh object per project: vitest annotates the browser options it is given.
const browser = () => ({ enabled: true, headless: true, provider: chromium, instances: [{ browser: 'chromium' as const }] });

export default defineConfig({
  // Lit's legacy decorators (TOOLCHAIN.md, "Decorators").
  oxc: { decorator: { legacy: true } },
  test: {
    projects: [
      {
        extends: true,
        plugins: [storybookTest({ configDir: fileURLToPath(new URL('./.storybook', import.meta.url)) })],
        test: { name: 'stories', browser: browser() },
      },
      {
        extends: true,
        test: { name: 'react', browser: browser(), include: ['test/browser/react/**/*.test.tsx'] },
      },
    ],
  },
});
