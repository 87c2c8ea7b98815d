/**
 * Issue 24: the Docs page of the published Storybook shows each state, not the empty form (play
 * functions run there too: `docs.story.autoplay`), and its table documents every member a merchant
 * reads, the read-only `status` among them, with the custom properties that restyle the element.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { builtStories, openStaticSite } from './static-site.js';
import type { OpenedSite } from './static-site.js';

const docsPages = builtStories('docs');
const stories = builtStories();

describe('the Docs page of the static Storybook', () => {
  let site: OpenedSite;
  let page: Page;
  before(async () => {
    site = await openStaticSite();
  });
  after(() => site?.close());

  for (const docs of docsPages) {
    const own = stories.filter((story) => story.title === docs.title);
    describe(docs.title, () => {
      before(async () => {
        page = await site.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(`${site.url}/iframe.html?${new URLSearchParams({ id: docs.id, viewMode: 'docs' })}`);
        // Every story's preview (the first one twice: the page opens with it) reports its check.
        await page.waitForFunction(
          (count) => {
            const frames = [...document.querySelectorAll<HTMLElement>('[data-expected-status]')];
            return frames.length >= count && frames.every((frame) => frame.dataset.storyCheck !== undefined);
          },
          own.length,
          { timeout: 60_000 },
        ).catch(() => {});
      });
      after(() => page?.close());

      it('shows every story in its state', async () => {
        const checks = await page.$$eval('[data-expected-status]', (frames) =>
          frames.map((frame) => (frame as HTMLElement).dataset.storyCheck ?? 'the play function never reported'),
        );
        assert.ok(checks.length >= own.length, `${checks.length} previews for ${own.length} stories`);
        assert.deepEqual(checks.filter((check) => check !== 'passed'), []);
      });

      it('documents status, the attributes and the custom properties in its table', async () => {
        const rows = await page.$$eval('.docblock-argstable tbody tr td:first-child', (cells) =>
          cells.map((cell) => cell.textContent?.trim().split(/\s/)[0] ?? ''),
        );
        for (const name of ['status', 'country', 'expiry-seconds', 'checkout-view', '--momo-color-primary', '--momo-color-scheme']) {
          assert.ok(rows.includes(name), `${name} is not in the table (rows: ${rows.join(', ')})`);
        }
      });
    });
  }
});
