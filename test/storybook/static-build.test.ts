/**
 * Issue 24: the published Storybook renders every story. The static build is served by a plain
 * file server and each story opened in Chromium: the element is registered, its play function
 * reached the story's state and found no axe violation. (Before the fix, 0 of 30 rendered: the
 * production build dropped `import '../src/define.js'` as side-effect free.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { builtStories, launchChromium, openStory, serveFolder, staticDir } from './static-site.js';

const stories = builtStories();

describe('the static Storybook, served by a plain file server', () => {
  let browser: Browser;
  let site: Awaited<ReturnType<typeof serveFolder>>;
  before(async () => {
    site = await serveFolder(staticDir);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('has stories to open', () => assert.ok(stories.length >= 30, `only ${stories.length} stories in the build`));

  for (const story of stories) {
    it(`renders ${story.title} / ${story.name}`, async () => {
      const page = await browser.newPage();
      try {
        const outcome = await openStory(page, site.url, story.id);
        assert.equal(outcome.registered, true, 'customElements.get("momo-checkout") is undefined: the build dropped src/define.ts');
        assert.equal(outcome.check, 'passed');
        assert.equal(outcome.status, outcome.expectedStatus);
      } finally {
        await page.close();
      }
    });
  }
});
