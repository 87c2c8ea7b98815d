/**
 * The engines suite's page: what a payer does (find a control by its role and name, click it with
 * a real pointer, type with the keyboard, read what is shown), written once over a few primitives
 * that each engine's driver gives (test/engines/firefox.ts, test/engines/webkit.ts).
 *
 * Clicks are pointer actions at the control's centre, never WebDriver's "element click": in
 * WebKitGTK that click hit-tests the shadow host and fails with "element click intercepted"
 * (TOOLCHAIN.md, 2026-11-26); a pointer at the centre lands where a finger would.
 */
import { readFileSync } from 'node:fs';
import { axeRunBody, axeSource, type AxeViolation } from '../support/axe.js';

export type EngineName = 'Firefox' | 'WebKit';

/** The primitives one engine's driver gives. */
export interface EngineDriver {
  readonly engine: EngineName;
  /** The browser's own version string, e.g. `firefox/153.7.0` (printed by the suite). */
  readonly version: string;
  goto(url: string): Promise<void>;
  /** Runs a function body (`return …`) in the page and gives its (awaited) result. */
  run<T>(body: string): Promise<T>;
  clickAt(point: { x: number; y: number }): Promise<void>;
  /** Types into the focused element, key by key. */
  typeKeys(text: string): Promise<void>;
  press(key: 'Tab' | 'Enter'): Promise<void>;
  /**
   * Runs an action that loads another page and returns once it has loaded. Firefox needs it: a
   * script run while its page is being replaced may keep answering from the old page (seen here
   * with puppeteer-core over BiDi: a sign-in's 401 page read as the form before it).
   */
  navigatingBy(action: () => Promise<void>): Promise<void>;
  /** Makes the page's viewport this wide (and tall), as far as the engine's window allows. */
  setViewport(width: number, height: number): Promise<void>;
  screenshot(path: string): Promise<void>;
  /** Uncaught exceptions and console errors seen so far (where the engine reports them). */
  problems(): string[];
  close(): Promise<void>;
}

/** in-page.js `layout`: the window's width, the page's, and where the element sits. */
export interface FirstStepLayout {
  innerWidth: number;
  scrollWidth: number;
  hostWidth: number;
  hostRight: number;
  /** The number field's width: a field squeezed beside the country list is hard to type in. */
  phoneWidth: number;
  dir: string | null;
}

export type Role = 'button' | 'link' | 'heading' | 'radio' | 'img' | 'alert' | 'status';
type Wanted = { text: string; exact: boolean } | { regex: string; flags: string };

const inPageSource = readFileSync(new URL('./in-page.js', import.meta.url), 'utf8');

function wanted(name: string | RegExp, exact = false): Wanted {
  return typeof name === 'string' ? { text: name, exact } : { regex: name.source, flags: name.flags };
}

export class EnginePage {
  constructor(readonly driver: EngineDriver) {}

  get engine(): EngineName {
    return this.driver.engine;
  }

  /** Calls one of in-page.js's helpers (injected again each time: a navigation forgets it). */
  private call<T>(name: string, ...args: unknown[]): Promise<T> {
    return this.driver.run<T>(`${inPageSource}\nreturn globalThis.__engines.${name}(${args.map((arg) => JSON.stringify(arg)).join(', ')});`);
  }

  goto(url: string): Promise<void> {
    return this.driver.goto(url);
  }

  url(): Promise<string> {
    return this.driver.run<string>('return location.href;');
  }

  /** Polls until `check` holds; fails with what the page shows, so a failure reads like a bug report. */
  async waitUntil(description: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > until) {
        const shown = await this.call<string>('shown').catch((error: Error) => `(page unreadable: ${error.message})`);
        throw new Error(`${this.engine}: waited ${timeoutMs} ms for ${description}; the page shows ${shown}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  waitForRole(role: Role, name: string | RegExp, timeoutMs?: number): Promise<void> {
    return this.waitUntil(`a ${role} named ${String(name)}`, () => this.call<boolean>('find', { role, name: wanted(name, true) }), timeoutMs);
  }

  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void> {
    return this.waitUntil(`the text ${String(text)}`, () => this.call<boolean>('seesText', wanted(text)), timeoutMs);
  }

  async has(role: Role, name: string | RegExp): Promise<boolean> {
    return this.call<boolean>('find', { role, name: wanted(name, true) });
  }

  /** A real pointer click at the centre of the control. */
  async click(role: Role, name: string | RegExp, options: { navigates?: boolean } = {}): Promise<void> {
    const query = { role, name: wanted(name, true), enabled: true };
    await this.waitUntil(`an enabled ${role} named ${String(name)}`, () => this.call<boolean>('find', query));
    const point = await this.call<{ x: number; y: number } | null>('centre', query);
    if (!point) throw new Error(`${this.engine}: the ${role} ${String(name)} went away before the click`);
    await (options.navigates ? this.driver.navigatingBy(() => this.driver.clickAt(point)) : this.driver.clickAt(point));
  }

  /** Focuses the field of this label, replaces what it holds by typing, then presses `then` (which may load a page). */
  async fill(label: string, value: string, then?: 'Tab' | 'Enter', options: { navigates?: boolean } = {}): Promise<void> {
    const query = { label: true, name: wanted(label, true) };
    await this.waitUntil(`a field labelled ${label}`, () => this.call<boolean>('find', query));
    // Keys typed while a page is still settling can go nowhere: check what the field holds, and
    // type once more if it lost them (as a person would), before pressing Tab or Enter.
    for (let attempt = 1; ; attempt++) {
      if (!(await this.call<boolean>('focusField', query))) throw new Error(`${this.engine}: the field ${label} went away`);
      await this.driver.typeKeys(value);
      const held = await this.call<string | null>('fieldValue', query);
      if (held === value) break;
      if (attempt === 2) throw new Error(`${this.engine}: typed ${value.length} characters into ${label}, it holds ${JSON.stringify(held)}`);
    }
    if (then && options.navigates) await this.driver.navigatingBy(() => this.driver.press(then));
    else if (then) await this.driver.press(then);
  }

  /** The first step's measurements (in-page.js `layout`). */
  layout(): Promise<FirstStepLayout> {
    return this.call('layout');
  }

  /** Plays an engine without container queries and :has() (in-page.js); gives the rules dropped. */
  asOlderEngine(): Promise<number> {
    return this.call('asOlderEngine');
  }

  /** axe-core's violations on this page (the same rules as Chromium's e2e, test/support/axe.ts). */
  async axe(): Promise<AxeViolation[]> {
    return this.driver.run<AxeViolation[]>(`${await axeSource()}\n${axeRunBody}`);
  }
}
