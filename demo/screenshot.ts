/**
 * Writes `docs/demo.png`, the README's picture of the demo store: the checkout at desktop width
 * with a sandbox number typed in and its operator found, ready to pay.
 * Run: `node --import tsx demo/screenshot.ts` (uses Debian's Chromium; CHROME_PATH overrides it).
 */
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { createLogger } from '../src/server/index.js';
import { startDemo } from './start-demo.js';

const target = fileURLToPath(new URL('../docs/demo.png', import.meta.url));

const demo = await startDemo({ port: 0, log: () => {}, companionLog: createLogger({ level: 'error' }) });
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
  await page.goto(`${demo.url}/?order=order-1042`);
  const field = page.getByLabel('Mobile money number');
  await field.pressSequentially('+229 01 96 00 00 01');
  await field.blur();
  await page.getByRole('button', { name: /^Pay / }).waitFor();
  await page.waitForFunction(() => {
    const image = document.querySelector('momo-checkout')?.shadowRoot?.querySelector('img.logo');
    return image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0;
  });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: target });
  console.log(`wrote ${target}`);
} finally {
  await browser.close();
  await demo.close();
}
