/**
 * Issue 24: visual baselines. Each English story at 320 px and desktop width, light and dark, and
 * each French story at 320 px dark (the French stories' own args), each Portuguese, Swahili and
 * Arabic story with its own args (Arabic at desktop width too: right to left at both widths;
 * issue 23), screenshotted from the static
 * build and compared with test/storybook/baselines. The font is pinned to DejaVu Sans (Debian's
 * fonts-dejavu-core, installed by scripts/ensure-test-tools.sh) through the public
 * `--momo-font-family`, so the pixels do not depend on which system font a machine has.
 * `npm run baselines:update` rewrites the baselines on purpose.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compareWithBaseline } from './pixel-compare.js';
import { builtStories, launchChromium, openStory, serveFolder, staticDir } from './static-site.js';
import type { StoryEntry } from './static-site.js';

const pinnedFont = "momo-checkout { --momo-font-family: 'DejaVu Sans'; }";

interface Shot {
  story: StoryEntry;
  variant: string;
  args: string;
}

const stories = builtStories();
const english = stories.filter((story) => story.title.startsWith('Checkout/English'));
const french = stories.filter((story) => story.title.startsWith('Checkout/Français'));
const otherLanguages = (['Português', 'Kiswahili', 'Arabic'] as const).flatMap((prefix) => stories.filter((story) => story.title.startsWith(`Checkout/${prefix}`)));
const shots: Shot[] = [
  ...english.flatMap((story) =>
    ['320px', 'desktop'].flatMap((width) =>
      ['light', 'dark'].map((theme) => ({ story, variant: `en-${width === '320px' ? '320' : 'desktop'}-${theme}`, args: `width:${width};theme:${theme}` })),
    ),
  ),
  ...french.map((story) => ({ story, variant: 'fr-320-dark', args: '' })),
  ...otherLanguages.map((story) => ({ story, variant: story.title.startsWith('Checkout/Arabic') ? 'ar-320-light' : story.title.startsWith('Checkout/Português') ? 'pt-320-light' : 'sw-desktop-dark', args: '' })),
  ...otherLanguages.filter((story) => story.title.startsWith('Checkout/Arabic')).map((story) => ({ story, variant: 'ar-desktop-light', args: 'width:desktop' })),
];

let browser: Browser;
let site: Awaited<ReturnType<typeof serveFolder>>;

async function newPage(): Promise<Page> {
  // Reduced motion: the spinner stands still; one scale factor everywhere.
  return browser.newPage({ viewport: { width: 1024, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
}

/** The story's frame (the element and the page colour around it) once its state is reached. */
export async function screenshotStory(page: Page, shot: Shot): Promise<Buffer> {
  const outcome = await openStory(page, site.url, shot.story.id, shot.args);
  assert.equal(outcome.check, 'passed', `${shot.story.name} did not reach its state`);
  await page.addStyleTag({ content: pinnedFont });
  await page.evaluate(async () => {
    await document.fonts.ready;
    const el = document.querySelector('momo-checkout')!;
    await Promise.all([...el.shadowRoot!.querySelectorAll('img')].map((img) => img.decode().catch(() => {})));
  });
  return page.locator('[data-expected-status]').screenshot({
    animations: 'disabled',
    caret: 'hide',
    // The countdown moves each second: its box is compared, not its digits.
    mask: [page.locator('momo-checkout .countdown')],
    maskColor: '#ff00ff',
  });
}

describe('visual baselines of the static Storybook', { concurrency: 4 }, () => {
  before(async () => {
    site = await serveFolder(staticDir);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('has every language to compare', () => {
    assert.ok(english.length >= 20 && french.length === english.length, `${english.length} English, ${french.length} French stories`);
    assert.ok(otherLanguages.length >= 30, `${otherLanguages.length} Portuguese, Swahili and Arabic stories`);
  });

  for (const shot of shots) {
    it(`${shot.variant} ${shot.story.name}`, async () => {
      const page = await newPage();
      try {
        const result = compareWithBaseline(`${shot.variant}/${shot.story.exportName}`, await screenshotStory(page, shot));
        if (result.kind === 'different') assert.fail(result.message);
      } finally {
        await page.close();
      }
    });
  }

  it('fails when one style changes (the comparison can fail)', { skip: process.env.UPDATE_BASELINES === '1' }, async () => {
    const story = english.find((entry) => entry.exportName === 'EnteringNumber')!;
    const page = await newPage();
    try {
      const shot = { story, variant: 'en-desktop-light', args: 'width:desktop;theme:light' };
      const name = `${shot.variant}/${story.exportName}`;
      assert.equal(compareWithBaseline(name, await screenshotStory(page, shot), false).kind, 'same');
      // One design token a shade off: the borders 8/255 darker than the default #8a9490.
      await page.addStyleTag({ content: 'momo-checkout { --momo-color-border: #828c88; }' });
      const changed = compareWithBaseline(name, await page.locator('[data-expected-status]').screenshot({ animations: 'disabled', caret: 'hide' }), false);
      assert.equal(changed.kind, 'different');
      assert.match((changed as { message: string }).message, /pixel\(s\) differ; diff: test-output\/visual\/en-desktop-light\/EnteringNumber\.diff\.png/);
    } finally {
      await page.close();
    }
  });
});
