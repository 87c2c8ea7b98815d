/**
 * Firefox ESR (Debian's `firefox-esr`) for the engines suite, driven by puppeteer-core over
 * WebDriver BiDi, headless. Playwright's Firefox needs its own patched build, which this machine
 * cannot download (TOOLCHAIN.md, 2026-11-26). `FIREFOX_PATH` points at another Firefox.
 */
import { access, constants } from 'node:fs/promises';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { EngineDriver } from './engine-page.js';

export const firefoxPath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

/** Fails (never skips) with what to install when Firefox is not there. */
export async function assertFirefoxInstalled(): Promise<void> {
  try {
    await access(firefoxPath, constants.X_OK);
  } catch {
    throw new Error(`Firefox is missing at ${firefoxPath}: install Debian's firefox-esr package (apt-get install firefox-esr, or run scripts/ensure-test-tools.sh as root), or set FIREFOX_PATH to a Firefox binary.`);
  }
}

class FirefoxDriver implements EngineDriver {
  readonly engine = 'Firefox' as const;
  private readonly seen: string[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    readonly version: string,
  ) {
    page.on('pageerror', (error) => this.seen.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') this.seen.push(`console: ${message.text()}`);
    });
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'load' });
  }

  run<T>(body: string): Promise<T> {
    return this.page.evaluate(`(async () => {\n${body}\n})()`) as Promise<T>;
  }

  clickAt({ x, y }: { x: number; y: number }): Promise<void> {
    return this.page.mouse.click(x, y);
  }

  typeKeys(text: string): Promise<void> {
    return this.page.keyboard.type(text);
  }

  press(key: 'Tab' | 'Enter'): Promise<void> {
    return this.page.keyboard.press(key);
  }

  async navigatingBy(action: () => Promise<void>): Promise<void> {
    await Promise.all([this.page.waitForNavigation({ waitUntil: 'load' }), action()]);
  }

  setViewport(width: number, height: number): Promise<void> {
    return this.page.setViewport({ width, height });
  }

  async screenshot(path: string): Promise<void> {
    await this.page.screenshot({ path: path as `${string}.png`, fullPage: true });
  }

  problems(): string[] {
    return [...this.seen];
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/** A fresh headless Firefox with one page, `width` × `height`. */
export async function openFirefox(width = 1280, height = 900): Promise<EngineDriver> {
  await assertFirefoxInstalled();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    // The machine's network is closed: no update, telemetry or safe-browsing calls.
    extraPrefsFirefox: { 'app.update.enabled': false, 'browser.safebrowsing.malware.enabled': false, 'browser.safebrowsing.phishing.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false },
  });
  try {
    // A new tab: Firefox's first one never has focus, and a field without focus takes no keys.
    const page = await browser.newPage();
    await page.setViewport({ width, height });
    return new FirefoxDriver(browser, page, await browser.version());
  } catch (error) {
    await browser.close();
    throw error;
  }
}
