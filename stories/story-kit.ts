/**
 * How every checkout story renders and tests: one `<momo-checkout>` driven by a scripted client,
 * in a frame that sets the language, the theme (through the public custom properties only) and the
 * width. The play function walks the scenario's steps, checks the state, then runs axe and checks
 * the borders' non-text contrast (3:1).
 */
import axe from 'axe-core';
import manifest from '../custom-elements.json' with { type: 'json' };
import type { StoryObj } from '@storybook/web-components-vite';
import '../src/define.js';
import { languageCodes, languagesInFiles } from '../src/contract/languages.js';
import { loadLanguageFile } from '../src/localize/load-language-file.js';
import type { ScriptedClient } from '../src/client/scripted-client.js';
import type { CheckoutView } from '../src/contract/companion.js';
import type { MomoCheckout } from '../src/element/momo-checkout.js';
import { expectNonTextContrast } from './non-text-contrast.js';
import { clientFor, reach, scenarios } from './scenarios.js';
import type { Lang, ScenarioName } from './scenarios.js';

// Every language file of the one list (contract/languages.ts): the stories show each language, as a page that includes its file.
await Promise.all(languagesInFiles.map(loadLanguageFile));

export interface CheckoutArgs {
  lang: Lang;
  theme: 'light' | 'dark';
  /** '320px' is a narrow column in whatever window: the element lays itself out from its own width. */
  width: '320px' | 'desktop';
  /** The element's own attributes and properties, as a merchant sets them. */
  country?: '' | 'BJ' | 'CI';
  'expiry-seconds'?: number;
  /** The `checkout-view` attribute: the checkout as the shop's server renders it into the page. */
  'checkout-view'?: CheckoutView;
  promptHelpAfterSeconds?: number;
  validationDelayMs?: number;
  /** The documented custom properties (`--momo-*`), set on the column as a merchant's CSS would. */
  [customProperty: `--${string}`]: string | undefined;
}

// A dark theme a merchant could write: only the documented custom properties (custom-elements.json).
const dark: Record<string, string> = {
  '--momo-color-primary': '#8ab4ff',
  '--momo-color-on-primary': '#0b1020',
  '--momo-color-surface': '#16181d',
  '--momo-color-text': '#f1f3f5',
  '--momo-color-muted': '#b8bec7',
  // 4.8:1 against the card: borders and the spinner's track are non-text contrast (WCAG 1.4.11, 3:1).
  '--momo-color-border': '#7d8590',
  '--momo-color-error': '#ff9d9d',
  '--momo-color-success': '#7ee2a8',
  // Native controls (radios, the country list) drawn dark as well.
  '--momo-color-scheme': 'dark',
};

const clients = new WeakMap<MomoCheckout, ScriptedClient>();

function renderCheckout(name: ScenarioName, args: CheckoutArgs): HTMLElement {
  const scenario = scenarios[name];
  const frame = document.createElement('div');
  frame.lang = args.lang;
  frame.style.width = args.width === '320px' ? '320px' : 'min(100%, 960px)';
  frame.style.padding = '16px';
  frame.style.boxSizing = 'border-box';
  frame.style.background = args.theme === 'dark' ? '#0b0d10' : '#ffffff';
  // What the static-build test compares the element's status with once the play function reports.
  frame.dataset.expectedStatus = scenario.status;
  if (args.theme === 'dark') for (const [property, value] of Object.entries(dark)) frame.style.setProperty(property, value);
  for (const [name, value] of Object.entries(args)) if (name.startsWith('--') && value) frame.style.setProperty(name, String(value));

  const el = document.createElement('momo-checkout');
  el.lang = args.lang;
  el.validationDelayMs = args.validationDelayMs ?? 20;
  if (args.country) el.setAttribute('country', args.country);
  if (args['expiry-seconds'] !== undefined) el.setAttribute('expiry-seconds', String(args['expiry-seconds']));
  if (args['checkout-view']) el.setAttribute('checkout-view', JSON.stringify(args['checkout-view']));
  if (args.promptHelpAfterSeconds !== undefined) el.promptHelpAfterSeconds = args.promptHelpAfterSeconds;
  // A story never leaves the page: the authorisation URL is shown, not visited.
  el.navigate = () => {};
  // The scenario's own settings last: they are what puts the story in its state.
  const setup: ((el: MomoCheckout) => void) | undefined = 'setup' in scenario ? scenario.setup : undefined;
  setup?.(el);
  const client = clientFor(scenario, args.lang);
  clients.set(el, client);
  el.client = client;
  frame.append(el);
  return frame;
}

// axe runs one check at a time per page, and the Docs page plays every story at once: queue them.
let axeQueue: Promise<unknown> = Promise.resolve();

/** Fails with the list of axe violations (rule, impact, first target) found in the element. */
export async function expectAccessible(el: HTMLElement): Promise<void> {
  const run = axeQueue.then(() => axe.run(el, { resultTypes: ['violations'] }));
  axeQueue = run.catch(() => {});
  const results = await run;
  const found = results.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes[0]?.target.join(' ') ?? ''}`);
  if (found.length > 0) throw new Error(`axe found ${found.length} accessibility violation(s):\n${found.join('\n')}`);
}

/** The story of one checkout state (its name is written in the stories file, where Storybook's indexer reads it). */
export function checkoutStory(name: ScenarioName, args: Partial<CheckoutArgs> = {}): StoryObj<CheckoutArgs> {
  const scenario = scenarios[name];
  return {
    args,
    render: (storyArgs) => renderCheckout(name, storyArgs),
    play: async ({ canvasElement, name: storyName }) => {
      const el = canvasElement.querySelector('momo-checkout');
      if (!el) throw new Error('the story rendered no <momo-checkout>');
      const frame = el.parentElement!;
      try {
        const client = clients.get(el)!;
        const steps: ((el: MomoCheckout, client: ScriptedClient) => Promise<void>) | undefined = 'steps' in scenario ? scenario.steps : undefined;
        await steps?.(el, client);
        await reach(el, scenario.status);
        if (!el.shadowRoot?.querySelector(scenario.shows)) throw new Error(`${storyName}: ${scenario.shows} is not shown`);
        await expectAccessible(el);
        expectNonTextContrast(el);
        // The static-build test (test/storybook) reads this: no Storybook API needed to know the outcome.
        frame.dataset.storyCheck = 'passed';
      } catch (error) {
        frame.dataset.storyCheck = error instanceof Error ? error.message : String(error);
        throw error;
      }
    },
  };
}

export const checkoutArgTypes = {
  lang: { control: 'inline-radio', options: languageCodes, description: 'The `lang` attribute (each language but English with its file).' },
  theme: { control: 'inline-radio', options: ['light', 'dark'], description: 'A dark theme set through the documented custom properties.' },
  width: { control: 'inline-radio', options: ['desktop', '320px'], description: 'Width of the column the element sits in.' },
  country: { control: 'select', options: ['', 'BJ', 'CI'], description: 'The `country` attribute: default country of the number.' },
  'expiry-seconds': { control: { type: 'number', min: 1 }, description: 'The `expiry-seconds` attribute.' },
  'checkout-view': { control: 'object', description: 'The `checkout-view` attribute (JSON): amount, currency and countries shown without asking the companion.' },
  promptHelpAfterSeconds: { control: { type: 'number', min: 0 }, description: 'Seconds before the "didn’t get the prompt?" help.' },
  validationDelayMs: { control: { type: 'number', min: 0 }, description: 'Pause after typing before the number is checked.' },
} as const;

/** The `momo-*` events, logged in the Actions panel. */
export const checkoutEvents = ['momo-state-change', 'momo-submit', 'momo-succeeded', 'momo-failed', 'momo-error'];

/**
 * The rest of what the manifest lists (custom-elements.json): the custom properties get a control
 * that sets them; members a story cannot change stay in the Docs table without a control that would
 * do nothing: the companion's address and token (a scripted client stands in for the companion),
 * the client, the setup wait (only without a client), the read-only status, and the property twins
 * of the attributes above.
 */
export const manifestArgTypes = {
  ...Object.fromEntries(
    cssProperties().map((name) => [name, controlForCustomProperty(name)]),
  ),
  ...Object.fromEntries(
    ['endpoint', 'token', 'checkoutView', 'client', 'setupWaitMs', 'status', 'expirySeconds'].map((name) => [name, { control: false }]),
  ),
};

function controlForCustomProperty(name: string): object {
  if (name.endsWith('color-scheme')) return { control: 'inline-radio', options: ['light', 'dark'] };
  return { control: name.startsWith('--momo-color-') ? 'color' : 'text' };
}

function cssProperties(): string[] {
  const declarations = manifest.modules.flatMap((module) => (module.declarations ?? []) as Array<{ tagName?: string; cssProperties?: Array<{ name: string }> }>);
  return declarations.find((declaration) => declaration.tagName === 'momo-checkout')?.cssProperties?.map((property) => property.name) ?? [];
}
