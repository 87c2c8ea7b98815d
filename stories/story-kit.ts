/**
 * How every checkout story renders and tests: one `<momo-checkout>` driven by a scripted client,
 * in a frame that sets the language, the theme (through the public custom properties only) and the
 * width. The play function walks the scenario's steps, checks the state, then runs axe.
 */
import axe from 'axe-core';
import type { StoryObj } from '@storybook/web-components-vite';
import '../src/define.js';
import type { ScriptedClient } from '../src/client/scripted-client.js';
import type { MomoCheckout } from '../src/element/momo-checkout.js';
import { clientFor, reach, scenarios } from './scenarios.js';
import type { ScenarioName } from './scenarios.js';

export interface CheckoutArgs {
  lang: 'en' | 'fr';
  theme: 'light' | 'dark';
  width: '320px' | 'desktop';
}

// A dark theme a merchant could write: only the documented custom properties (custom-elements.json).
const dark: Record<string, string> = {
  '--momo-color-primary': '#8ab4ff',
  '--momo-color-on-primary': '#0b1020',
  '--momo-color-surface': '#16181d',
  '--momo-color-text': '#f1f3f5',
  '--momo-color-muted': '#b8bec7',
  '--momo-color-border': '#5a616b',
  '--momo-color-error': '#ff9d9d',
  '--momo-color-success': '#7ee2a8',
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

  const el = document.createElement('momo-checkout');
  el.lang = args.lang;
  el.validationDelayMs = 20;
  // A story never leaves the page: the authorisation URL is shown, not visited.
  el.navigate = () => {};
  const setup: ((el: MomoCheckout) => void) | undefined = 'setup' in scenario ? scenario.setup : undefined;
  setup?.(el);
  const client = clientFor(scenario);
  clients.set(el, client);
  el.client = client;
  frame.append(el);
  return frame;
}

/** Fails with the list of axe violations (rule, impact, first target) found in the element. */
export async function expectAccessible(el: HTMLElement): Promise<void> {
  const results = await axe.run(el, { resultTypes: ['violations'] });
  const found = results.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes[0]?.target.join(' ') ?? ''}`);
  if (found.length > 0) throw new Error(`axe found ${found.length} accessibility violation(s):\n${found.join('\n')}`);
}

/** The story of one checkout state. */
export function checkoutStory(name: ScenarioName, args: Partial<CheckoutArgs> = {}): StoryObj<CheckoutArgs> {
  const scenario = scenarios[name];
  return {
    name: scenario.title,
    args,
    render: (storyArgs) => renderCheckout(name, storyArgs),
    play: async ({ canvasElement }) => {
      const el = canvasElement.querySelector('momo-checkout');
      if (!el) throw new Error('the story rendered no <momo-checkout>');
      const frame = el.parentElement!;
      try {
        const client = clients.get(el)!;
        const steps: ((el: MomoCheckout, client: ScriptedClient) => Promise<void>) | undefined = 'steps' in scenario ? scenario.steps : undefined;
        await steps?.(el, client);
        await reach(el, scenario.status);
        if (!el.shadowRoot?.querySelector(scenario.shows)) throw new Error(`${scenario.title}: ${scenario.shows} is not shown`);
        await expectAccessible(el);
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
  lang: { control: 'inline-radio', options: ['en', 'fr'] },
  theme: { control: 'inline-radio', options: ['light', 'dark'] },
  width: { control: 'inline-radio', options: ['desktop', '320px'] },
} as const;
