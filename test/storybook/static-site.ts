/**
 * The published Storybook as a design team sees it: `storybook-static/` served by a plain file
 * server (no Storybook, no Vite, nothing that could register the element for it) and opened in
 * Chromium. Shared by the render test and the visual baselines.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

const staticDir = resolve(import.meta.dirname, '../../storybook-static');

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Serves a folder's files as they are, like any static host would. */
async function serveFolder(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  // Port 0: the system picks a free one (never a fixed port in tests).
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the file server has no port');
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((done) => server.close(() => done())) };
}

export interface StoryEntry {
  id: string;
  title: string;
  name: string;
  exportName: string;
  tags: string[];
}

/** The stories (or the Docs pages) of the build, from the index Storybook writes beside its pages. */
export function builtStories(type: 'story' | 'docs' = 'story'): StoryEntry[] {
  const index = join(staticDir, 'index.json');
  if (!existsSync(index)) throw new Error(`${index} is missing: run \`npm run build-storybook\` first.`);
  const { entries } = JSON.parse(readFileSync(index, 'utf8')) as { entries: Record<string, StoryEntry & { type: string }> };
  return Object.values(entries).filter((entry) => entry.type === type);
}

export interface OpenedSite {
  url: string;
  /** A page of its own; the clipboard is granted, as a payer's click grants it (the "Copied" story copies for real). */
  newPage: (options?: BrowserContextOptions) => Promise<Page>;
  close: () => Promise<void>;
}

/** `storybook-static/` served and Chromium launched: what each test of the published site starts with. */
export async function openStaticSite(): Promise<OpenedSite> {
  const server = await serveFolder(staticDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  return {
    url: server.url,
    // Without the grant, writeText fails now and then in pages that run side by side (focus moves between them).
    newPage: (options = {}) => browser.newPage({ ...options, permissions: ['clipboard-read', 'clipboard-write'] }),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

export interface StoryOutcome {
  registered: boolean;
  /** What the story's play function said: 'passed', or why it failed. */
  check: string;
  status: string | null;
  expectedStatus: string | null;
}

/**
 * Opens one story's canvas (what Storybook's own frame shows) and waits for its play function to
 * report. `args` overrides the story's args as Storybook's URL does (`lang:fr;theme:dark`).
 */
export async function openStory(page: Page, base: string, id: string, args = ''): Promise<StoryOutcome> {
  const query = new URLSearchParams({ id, viewMode: 'story' });
  if (args) query.set('args', args);
  // Storybook's preview boots in seconds, but in tens of them on a shared 2-core machine under load.
  await page.goto(`${base}/iframe.html?${query}`, { timeout: 60_000 });
  try {
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-story-check]') !== null, undefined, { timeout: 15_000 });
  } catch {
    // Not reported: say what the page holds rather than only "timeout".
  }
  return page.evaluate(() => {
    const frame = document.querySelector<HTMLElement>('[data-expected-status]');
    const el = document.querySelector('momo-checkout') as (HTMLElement & { status?: string }) | null;
    return {
      registered: customElements.get('momo-checkout') !== undefined,
      check: document.querySelector<HTMLElement>('[data-story-check]')?.dataset.storyCheck ?? 'the play function never reported',
      status: el?.status ?? null,
      expectedStatus: frame?.dataset.expectedStatus ?? null,
    };
  });
}
