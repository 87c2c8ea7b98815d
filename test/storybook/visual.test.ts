/**
 * Issue 24: visual baselines. Every story, English and French, at 320 px and desktop width, light
 * and dark, screenshotted from the static build and compared with test/storybook/baselines. The
 * font is pinned to DejaVu Sans (Debian's fonts-dejavu-core, installed by
 * scripts/ensure-test-tools.sh) through the public `--momo-font-family`, so the pixels do not depend
 * on which system font a machine has. Portuguese, Swahili and Arabic stories (issue 23) are shot
 * with their own args, and Arabic at desktop width too: right to left at both widths. Each shot
 * switches story inside an already-booted preview page (preview-pool.ts, issue 42): the same render
 * and play as a page of its own, without loading Storybook 254 times.
 * `npm run baselines:update` rewrites the baselines on purpose.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { compareWithBaseline } from './pixel-compare.js';
import { previewPool, switchStory } from './preview-pool.js';
import type { PreviewPool } from './preview-pool.js';
import { builtStories, openStaticSite } from './static-site.js';
import type { OpenedSite, StoryEntry } from './static-site.js';

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

/** A brand colour made for a light card is not shot on a dark one (the story says why). */
function themesOf(story: StoryEntry): Array<'light' | 'dark'> {
  return story.tags.includes('light-theme-only') ? ['light'] : ['light', 'dark'];
}

/** Each story at both widths in both themes (the story's own language): `en-320-dark`, ... */
function shotsOf(lang: 'en' | 'fr', languageStories: StoryEntry[]): Shot[] {
  return languageStories.flatMap((story) =>
    (['320px', 'desktop'] as const).flatMap((width) =>
      themesOf(story).map((theme) => ({
        story,
        variant: `${lang}-${width === '320px' ? '320' : 'desktop'}-${theme}`,
        args: `width:${width};theme:${theme}`,
      })),
    ),
  );
}
/** A language's own stories with the args their file sets (`pt-320-light`, ...); Arabic at desktop too. */
function ownArgsShots(languageStories: StoryEntry[]): Shot[] {
  const variant = (story: StoryEntry) =>
    story.title.startsWith('Checkout/Arabic') ? 'ar-320-light' : story.title.startsWith('Checkout/Português') ? 'pt-320-light' : 'sw-desktop-dark';
  return [
    ...languageStories.map((story) => ({ story, variant: variant(story), args: '' })),
    ...languageStories.filter((story) => story.title.startsWith('Checkout/Arabic')).map((story) => ({ story, variant: 'ar-desktop-light', args: 'width:desktop' })),
  ];
}
const shots = [...shotsOf('en', english), ...shotsOf('fr', french), ...ownArgsShots(otherLanguages)];

/**
 * Shots side by side: one booted page each (test/storybook/preview-pool.ts). Two cores: more pages
 * than this only wait on each other's play functions and screenshots.
 */
const concurrency = 3;

let site: OpenedSite;
let pages: PreviewPool;

/**
 * Switches the page to the shot's story, waits for its state, and pins the font (after the play
 * function, as a fresh page had it). Returns what takes the font off again for the next story.
 */
async function showStory(page: Page, shot: Shot): Promise<() => Promise<void>> {
  const outcome = await switchStory(page, shot.story.id, shot.args);
  assert.equal(outcome.check, 'passed', `${shot.story.name} did not reach its state`);
  const font = await page.addStyleTag({ content: pinnedFont });
  await page.evaluate(async () => {
    await document.fonts.ready;
    const el = document.querySelector('momo-checkout')!;
    await Promise.all([...el.shadowRoot!.querySelectorAll('img')].map((img) => img.decode().catch(() => {})));
  });
  return () => font.evaluate((tag) => (tag as HTMLStyleElement).remove());
}

/** The story's frame (the element and the page colour around it) once its state is reached. */
export async function screenshotStory(page: Page, shot: Shot): Promise<Buffer> {
  const unpinFont = await showStory(page, shot);
  const image = await page.locator('[data-expected-status]').screenshot({
    animations: 'disabled',
    caret: 'hide',
    // The countdown moves each second: its box is compared, not its digits.
    mask: [page.locator('momo-checkout .countdown')],
    maskColor: '#ff00ff',
  });
  await unpinFont();
  return image;
}

describe('visual baselines of the static Storybook', { concurrency }, () => {
  before(async () => {
    site = await openStaticSite();
    // Reduced motion: the spinner stands still; one scale factor everywhere.
    pages = previewPool(site, english[0]!.id, concurrency, { viewport: { width: 1024, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  });
  after(async () => {
    await pages?.close();
    await site?.close();
  });

  it('has every language to compare', () => {
    assert.ok(english.length >= 20 && french.length >= 20, `${english.length} English, ${french.length} French stories`);
    assert.ok(otherLanguages.length >= 30, `${otherLanguages.length} Portuguese, Swahili and Arabic stories`);
  });

  for (const shot of shots) {
    it(`${shot.variant} ${shot.story.name}`, () =>
      pages.withPage(async (page) => {
        const result = compareWithBaseline(`${shot.variant}/${shot.story.exportName}`, await screenshotStory(page, shot));
        if (result.kind === 'different') assert.fail(result.message);
      }));
  }

  it('fails when one style changes (the comparison can fail)', { skip: process.env.UPDATE_BASELINES === '1' }, async () => {
    const story = english.find((entry) => entry.exportName === 'EnteringNumber')!;
    await pages.withPage(async (page) => {
      const shot = { story, variant: 'en-desktop-light', args: 'width:desktop;theme:light' };
      const name = `${shot.variant}/${story.exportName}`;
      assert.equal(compareWithBaseline(name, await screenshotStory(page, shot), false).kind, 'same');
      const unpinFont = await showStory(page, shot);
      // One design token a shade off: the borders 8/255 darker than the default #8a9490.
      const restyle = await page.addStyleTag({ content: 'momo-checkout { --momo-color-border: #828c88; }' });
      const changed = compareWithBaseline(name, await page.locator('[data-expected-status]').screenshot({ animations: 'disabled', caret: 'hide' }), false);
      assert.equal(changed.kind, 'different');
      assert.match((changed as { message: string }).message, /pixel\(s\) differ; diff: test-output\/visual\/en-desktop-light\/EnteringNumber\.diff\.png/);
      // The page goes back to the pool as the next story expects it.
      await restyle.evaluate((tag) => (tag as HTMLStyleElement).remove());
      await unpinFont();
    });
  });
});
