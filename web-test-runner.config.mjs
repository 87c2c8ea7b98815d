// Browser tests of <momo-checkout> and the console's pictures in Debian's Chromium (TOOLCHAIN.md, "Chromium").
// Run: npx wtr   (CHROME_PATH overrides the browser's path)
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';
import { touchScreenPlugin } from './test/browser/support/touch-screen-plugin.mjs';

export default {
  // The element's suites, and the console's browser code (test/console/browser/, beside its Node-side tests).
  files: ['test/browser/**/*.test.ts', 'test/console/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  testFramework: { config: { timeout: 5000 } },
  plugins: [
    // tsconfig.json sets experimentalDecorators + useDefineForClassFields: false; without them Lit's
    // reactive properties silently stop updating (TOOLCHAIN.md, "Decorators").
    esbuildPlugin({ ts: true, tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
    touchScreenPlugin(),
  ],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    }),
  ],
};
