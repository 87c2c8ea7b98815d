/**
 * Issue 24: the published Storybook renders every story. The static build is served by a plain
 * file server and each story opened in Chromium: the element is registered, its play function
 * reached the story's state and found no axe violation. (Before the fix, 0 of 30 rendered: the
 * production build dropped `import '../src/define.js'` as side-effect free.) Stories are switched
 * inside a few booted preview pages, as the published site's sidebar switches them (preview-pool.ts,
 * issue 42); the two tests of the URL's args open their story's URL in a page of its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { previewPool, switchStory } from './preview-pool.js';
import type { PreviewPool } from './preview-pool.js';
import { builtStories, openStaticSite, openStory } from './static-site.js';
import type { OpenedSite } from './static-site.js';

const stories = builtStories();
/** Pages side by side on two cores (as in visual.test.ts). */
const concurrency = 3;

describe('the static Storybook, served by a plain file server', { concurrency }, () => {
  let site: OpenedSite;
  let pages: PreviewPool;
  before(async () => {
    site = await openStaticSite();
    pages = previewPool(site, stories[0]!.id, concurrency, {});
  });
  after(async () => {
    await pages?.close();
    await site?.close();
  });

  it('has stories to open', () => assert.ok(stories.length >= 30, `only ${stories.length} stories in the build`));

  it('passes its controls to the element: an attribute from the URL, custom properties from the story', async () => {
    const story = stories.find((entry) => entry.exportName === 'MerchantBrand')!;
    const page = await site.newPage();
    try {
      const outcome = await openStory(page, site.url, story.id, 'country:CI');
      assert.equal(outcome.check, 'passed');
      const seen = await page.evaluate(() => {
        const el = document.querySelector('momo-checkout')!;
        const button = getComputedStyle(el.shadowRoot!.querySelector('select')!);
        return { country: el.shadowRoot!.querySelector('select')!.value, radius: button.borderTopLeftRadius };
      });
      // --momo-radius 6px: fields round at two thirds of it.
      assert.deepEqual(seen, { country: 'CI', radius: '4.02px' });
    } finally {
      await page.close();
    }
  });

  it('passes the checkout-view control to the element as its attribute: the amount and country it holds show', async () => {
    const story = stories.find((entry) => entry.exportName === 'ServerRenderedView')!;
    const page = await site.newPage();
    try {
      const outcome = await openStory(page, site.url, story.id);
      assert.equal(outcome.check, 'passed');
      const seen = await page.evaluate(() => {
        const root = document.querySelector('momo-checkout')!.shadowRoot!;
        return { amount: root.querySelector('.amount-value')!.textContent, countries: [...root.querySelectorAll('option')].map((o) => o.value) };
      });
      // The scripted companion says 5,000 for Benin and Côte d'Ivoire: the attribute wins.
      assert.deepEqual(seen, { amount: 'F\u202fCFA\u00a012,500', countries: ['CI'] });
    } finally {
      await page.close();
    }
  });

  for (const story of stories) {
    it(`renders ${story.title} / ${story.name}`, () =>
      pages.withPage(async (page) => {
        const outcome = await switchStory(page, story.id);
        assert.equal(outcome.registered, true, 'customElements.get("momo-checkout") is undefined: the build dropped src/define.ts');
        assert.equal(outcome.check, 'passed');
        assert.equal(outcome.status, outcome.expectedStatus);
      }));
  }
});
