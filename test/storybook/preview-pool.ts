/**
 * Long-lived pages of the static Storybook that switch stories inside the already-booted preview
 * (issue 42): booting `iframe.html` costs seconds per page on the 2-core machine, switching a story
 * a few hundred milliseconds. Each switch goes through Storybook's own preview (the same
 * `renderSelection` its manager's SET_CURRENT_STORY runs, with the URL's args), so the story renders
 * and plays as in a page of its own; what a page keeps between stories (storage, focus, scroll,
 * `<html>`'s attributes, the story's args) is put back first, and the baselines the shots are
 * compared with prove nothing leaks. `selectionStore`, `currentSelection` and the args store are
 * the preview's own members (Storybook 10.6): should an upgrade rename one, a switch throws or its
 * play never reports, and every test says so, rather than shooting the wrong story.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import type { OpenedSite, StoryOutcome } from './static-site.js';

/** `lang:fr;theme:dark`, Storybook's URL form of args, as an object (plain string values only). */
function argsFromUrlForm(args: string): Record<string, string> {
  return Object.fromEntries(args.split(';').filter(Boolean).map((pair) => {
    const at = pair.indexOf(':');
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
}

/** Opens `iframe.html` on a first story and waits until its preview has played it: the preview is booted. */
async function bootPreview(page: Page, base: string, firstStoryId: string): Promise<void> {
  await page.goto(`${base}/iframe.html?${new URLSearchParams({ id: firstStoryId, viewMode: 'story' })}`, { timeout: 60_000 });
  // Played, or failed before its play could report (a story that cannot render still boots the preview).
  await page.waitForFunction(
    () => {
      const render = (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } }).__STORYBOOK_PREVIEW__?.currentRender;
      return document.querySelector('[data-story-check]') !== null || render?.phase === 'finished' || render?.phase === 'errored';
    },
    undefined,
    { timeout: 60_000 },
  );
  // What a fresh page's <html> holds, put back before each story (a story must not inherit dir or lang).
  await page.evaluate(() => {
    const html = document.documentElement;
    (window as unknown as { momoHtmlAttributes: Array<[string, string]> }).momoHtmlAttributes = [...html.attributes].map((a) => [a.name, a.value]);
  });
}

/**
 * Renders `storyId` with `args` (the URL form) in the booted preview and waits for its play function
 * to report: what `openStory` tells of a fresh page.
 */
export async function switchStory(page: Page, storyId: string, args = ''): Promise<StoryOutcome> {
  return page.evaluate(
    async ({ storyId, persistedArgs }) => {
      interface Preview {
        currentSelection?: unknown;
        selectionStore: { setSelection: (selection: { storyId: string; viewMode: 'story' }) => void };
        storyStoreValue: { args: { argsByStoryId: Record<string, unknown>; initialArgsByStoryId: Record<string, unknown> } };
        renderSelection: (options: { persistedArgs?: Record<string, string> }) => Promise<void>;
      }
      const preview = (window as unknown as { __STORYBOOK_PREVIEW__: Preview }).__STORYBOOK_PREVIEW__;
      const previous = document.querySelector('[data-expected-status]');
      // A fresh page's state: no remembered number, nothing focused, at the top, <html> as it booted.
      localStorage.clear();
      sessionStorage.clear();
      (document.activeElement as HTMLElement | null)?.blur?.();
      window.scrollTo(0, 0);
      const html = document.documentElement;
      const booted = (window as unknown as { momoHtmlAttributes: Array<[string, string]> }).momoHtmlAttributes;
      for (const name of html.getAttributeNames()) if (!booted.some(([kept]) => kept === name)) html.removeAttribute(name);
      for (const [name, value] of booted) html.setAttribute(name, value);
      // The story's args as it declares them, then the URL's: an earlier shot's args do not carry over.
      delete preview.storyStoreValue.args.argsByStoryId[storyId];
      delete preview.storyStoreValue.args.initialArgsByStoryId[storyId];
      // No current selection: the same story again is a new render (and a new play), not "unchanged".
      preview.currentSelection = undefined;
      preview.selectionStore.setSelection({ storyId, viewMode: 'story' });
      await preview.renderSelection({ persistedArgs });
      const start = performance.now();
      let frame = document.querySelector<HTMLElement>('[data-expected-status]');
      while (!(frame && frame !== previous && frame.dataset.storyCheck !== undefined) && performance.now() - start < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        frame = document.querySelector<HTMLElement>('[data-expected-status]');
      }
      const fresh = frame && frame !== previous ? frame : null;
      const el = fresh?.querySelector('momo-checkout') as (HTMLElement & { status?: string }) | null | undefined;
      return {
        registered: customElements.get('momo-checkout') !== undefined,
        check: fresh?.dataset.storyCheck ?? 'the play function never reported',
        status: el?.status ?? null,
        expectedStatus: fresh?.dataset.expectedStatus ?? null,
      };
    },
    { storyId, persistedArgs: argsFromUrlForm(args) },
  );
}

export interface PreviewPool {
  /** Runs `use` with a booted page of its own; a page whose story failed is replaced, not reused. */
  withPage: <T>(use: (page: Page) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
}

/** Up to `size` booted pages, each reused story after story by one test at a time. */
export function previewPool(site: OpenedSite, firstStoryId: string, size: number, options: BrowserContextOptions): PreviewPool {
  const idle: Page[] = [];
  const all = new Set<Page>();
  const waiting: Array<(page: Page | undefined) => void> = [];
  let opened = 0;

  async function acquire(): Promise<Page> {
    const ready = idle.pop();
    if (ready) return ready;
    if (opened < size) {
      opened += 1;
      try {
        const page = await site.newPage(options);
        all.add(page);
        await bootPreview(page, site.url, firstStoryId);
        return page;
      } catch (error) {
        opened -= 1;
        throw error;
      }
    }
    const handed = await new Promise<Page | undefined>((resolve) => waiting.push(resolve));
    return handed ?? acquire();
  }

  function release(page: Page, healthy: boolean): void {
    if (!healthy) {
      all.delete(page);
      opened -= 1;
      void page.close().catch(() => {});
      // A waiting test opens a page in its place.
      waiting.shift()?.(undefined);
      return;
    }
    const next = waiting.shift();
    if (next) next(page);
    else idle.push(page);
  }

  return {
    withPage: async (use) => {
      const page = await acquire();
      let healthy = false;
      try {
        const result = await use(page);
        healthy = true;
        return result;
      } finally {
        release(page, healthy);
      }
    },
    close: async () => {
      await Promise.all([...all].map((page) => page.close().catch(() => {})));
    },
  };
}
