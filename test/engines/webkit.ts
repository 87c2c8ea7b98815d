/**
 * WebKitGTK (Safari's engine, Debian's `webkit2gtk-driver`) for the engines suite: WebKitWebDriver
 * under `xvfb-run` (it has no headless mode), driving MiniBrowser through selenium-webdriver
 * (TOOLCHAIN.md, 2026-11-26). MiniBrowser's window stops at 447 px wide: the 360 px screens use
 * test/engines/webkit-window.ts instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { access, constants, writeFile } from 'node:fs/promises';
import { Builder, Key, Origin, type WebDriver } from 'selenium-webdriver';
import { freePort } from '../support/free-port.js';
import type { EngineDriver } from './engine-page.js';

export const webkitDriverPath = process.env.WEBKIT_WEBDRIVER_PATH || '/usr/bin/WebKitWebDriver';
export const miniBrowserPath = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(() => true, () => false);
}

/** Fails (never skips) with what to install when WebKitGTK's driver, MiniBrowser or Xvfb is not there. */
export async function assertWebKitInstalled(): Promise<void> {
  const missing: string[] = [];
  if (!(await executable(webkitDriverPath)) || !(await executable(miniBrowserPath))) missing.push('webkit2gtk-driver');
  if (!(await executable('/usr/bin/xvfb-run')) || !(await executable('/usr/bin/xauth'))) missing.push('xvfb xauth');
  if (missing.length > 0) {
    throw new Error(`WebKitGTK is missing (${webkitDriverPath}, ${miniBrowserPath}, xvfb-run): install Debian's packages ${missing.join(' and ')} (apt-get install ${missing.join(' ')}, or run scripts/ensure-test-tools.sh as root).`);
  }
}

/** Starts WebKitWebDriver on a free port inside its own virtual screen, and waits until it answers. */
async function startWebDriver(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  // Its own process group (detached), so that closing stops Xvfb, the driver and MiniBrowser together.
  const child = spawn('/usr/bin/xvfb-run', ['-a', '-s', '-screen 0 1600x1200x24', webkitDriverPath, `--port=${port}`], { detached: true, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/status`).then((answer) => answer.ok, () => false);
    if (ready) return { url, process: child };
    if (child.exitCode !== null || Date.now() > until) {
      stopGroup(child);
      throw new Error(`WebKitWebDriver did not answer on ${url} within 20 s (exit code ${child.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

class WebKitDriver implements EngineDriver {
  readonly engine = 'WebKit' as const;

  constructor(
    private readonly driver: WebDriver,
    private readonly server: ChildProcess,
    readonly version: string,
  ) {}

  async goto(url: string): Promise<void> {
    await this.driver.get(url);
  }

  run<T>(body: string): Promise<T> {
    // WebDriver's "execute script" awaits a returned promise.
    return this.driver.executeScript<T>(`return (async () => {\n${body}\n})();`);
  }

  async clickAt({ x, y }: { x: number; y: number }): Promise<void> {
    await this.driver.actions({ async: true }).move({ x, y, origin: Origin.VIEWPORT }).press().release().perform();
  }

  async typeKeys(text: string): Promise<void> {
    await this.driver.actions({ async: true }).sendKeys(text).perform();
  }

  async press(key: 'Tab' | 'Enter'): Promise<void> {
    await this.driver.actions({ async: true }).sendKeys(key === 'Tab' ? Key.TAB : Key.ENTER).perform();
  }

  /** WebDriver's scripts always run in the page the window shows: the polls that follow see the new one. */
  navigatingBy(action: () => Promise<void>): Promise<void> {
    return action();
  }

  /** The window is the viewport plus MiniBrowser's own bars: sized once, then corrected by what is left. */
  async setViewport(width: number, height: number): Promise<void> {
    await this.driver.manage().window().setRect({ width, height });
    const inner = await this.driver.executeScript<{ w: number; h: number }>('return { w: innerWidth, h: innerHeight };');
    if (inner.w !== width || inner.h !== height) await this.driver.manage().window().setRect({ width: width * 2 - inner.w, height: height * 2 - inner.h });
  }

  async screenshot(path: string): Promise<void> {
    await writeFile(path, Buffer.from(await this.driver.takeScreenshot(), 'base64'));
  }

  /** MiniBrowser drops console messages in automation mode (the 360 px window reports them). */
  problems(): string[] {
    return [];
  }

  async close(): Promise<void> {
    try {
      await this.driver.quit();
    } finally {
      stopGroup(this.server);
    }
  }
}

/** A MiniBrowser session under its own Xvfb, its viewport `width` × `height`. */
export async function openWebKit(width = 1280, height = 900): Promise<EngineDriver> {
  await assertWebKitInstalled();
  const server = await startWebDriver();
  try {
    const driver = await new Builder()
      .usingServer(server.url)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] } })
      .build();
    const capabilities = await driver.getCapabilities();
    const webkit = new WebKitDriver(driver, server.process, `${String(capabilities.get('browserName'))}/${String(capabilities.get('browserVersion'))}`);
    await webkit.setViewport(width, height);
    return webkit;
  } catch (error) {
    stopGroup(server.process);
    throw error;
  }
}
