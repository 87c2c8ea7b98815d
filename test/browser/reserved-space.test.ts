/**
 * Issue 32, "Done when": the element's box keeps one height from its first paint (before its
 * script has defined it, under the rule docs/embedding.md gives merchants) to the number step's
 * first render, with no payer action: it does not move the merchant's page below it while it
 * upgrades, loads the checkout, fills in a remembered number and looks that number up.
 *
 * Each case runs in an iframe of its own, so the tag is not yet defined there when it first paints.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { createScriptedClient } from '../../src/client/scripted-client.js';
import { numberMemoryKey } from '../../src/element/number-memory.js';
import type { MomoCheckout } from '../../src/element/momo-checkout.js';
import { checkout, lookupAnswer, typedNumber } from './fixtures.js';

/** The CSS block of docs/embedding.md that reserves the element's space before it is defined. */
async function documentedRule(): Promise<string> {
  const docs = await (await fetch('/docs/embedding.md')).text();
  const block = [...docs.matchAll(/```css\n([\s\S]*?)```/g)].map((match) => match[1]!).find((css) => css.includes(':not(:defined)'));
  if (!block) throw new Error('docs/embedding.md has no ```css block with a momo-checkout:not(:defined) rule');
  return block;
}

const nextFrame = (win: Window) => new Promise<void>((resolve) => win.requestAnimationFrame(() => resolve()));

interface Run {
  /** Every height the box had, in order, from its first paint on. */
  heights: number[];
  /** Layout shifts the iframe's page recorded (the paragraph below the element moving). */
  shifts: number;
  /** What moved, for the failure message. */
  moved: string[];
}

async function watch(options: { width: number; lang: string; until: 'entering' | 'ready'; from?: 'first-paint' | 'first-render' }): Promise<Run> {
  const frame = document.createElement('iframe');
  frame.style.cssText = `width: ${options.width + 40}px; height: 900px; border: 0`;
  frame.srcdoc = `<!doctype html><html lang="${options.lang}"><head><style>body { margin: 20px; font-family: system-ui; }\n${await documentedRule()}</style></head>
<body><div style="width: ${options.width}px"><momo-checkout endpoint="/momo" token="t"></momo-checkout></div><p id="below">The shop's text below the checkout.</p></body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow! as Window & typeof globalThis;
  const doc = frame.contentDocument!;
  let shifts = 0;
  const moved: string[] = [];
  /** Shifts from before this time (the iframe's clock) are not counted: see `from`. */
  let since = 0;
  new win.PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> }>) {
      // Entries come a moment after their frame (late on a busy machine): filtered by their own time.
      if (entry.startTime < since) continue;
      shifts += entry.value;
      for (const source of entry.sources) {
        const node = source.node as Element | null;
        // Nodes inside the element's shadow root are not exposed (null): their rectangles tell.
        const name = node ? `${node.nodeName.toLowerCase()}${node.className ? `.${node.className}` : ''} "${node.textContent ?? ''}"` : '(in the shadow root)';
        const { previousRect: a, currentRect: b } = source;
        moved.push(`${name} (${a.x},${a.y} ${a.width}x${a.height} → ${b.x},${b.y} ${b.width}x${b.height})`);
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
  const host = doc.querySelector('momo-checkout') as MomoCheckout;
  const heights: number[] = [];
  const record = () => {
    const height = Math.round(host.getBoundingClientRect().height * 2) / 2;
    if (heights.at(-1) !== height) heights.push(height);
  };
  await nextFrame(win);
  record();
  new win.ResizeObserver(record).observe(host);
  // Answers a moment later, as a companion across a network does: the loading state is painted.
  const slow = <T>(value: T) => () => new Promise<T>((resolve) => setTimeout(() => resolve(value), 150));
  // Set before the upgrade, as a framework may: the element takes it over when defined.
  (host as { client?: unknown }).client = createScriptedClient({ checkout: slow(checkout), lookup: slow(lookupAnswer()), preview: slow({ workflow: 'provider_auth' as const }) });
  host.validationDelayMs = 20;
  await nextFrame(win);
  record();
  const script = doc.createElement('script');
  script.type = 'module';
  script.src = new URL('/src/define.ts', location.href).href;
  doc.head.append(script);
  await waitUntil(() => win.customElements.get('momo-checkout') !== undefined, 'the element was never defined', { timeout: 5000 });
  if (options.from === 'first-render') {
    await host.updateComplete;
    // Two frames: the first render is laid out and painted (its shift, if any, belongs to the upgrade).
    await nextFrame(win);
    await nextFrame(win);
    since = win.performance.now();
    heights.length = 0;
    moved.length = 0;
    shifts = 0;
    record();
  }
  await waitUntil(() => host.status === options.until, `never reached ${options.until} (stuck in ${host.status})`, { timeout: 3000 });
  await host.updateComplete;
  await nextFrame(win);
  await nextFrame(win);
  record();
  frame.remove();
  return { heights, shifts, moved };
}

describe('<momo-checkout> keeps its space from first paint to the number step', () => {
  afterEach(() => localStorage.removeItem(numberMemoryKey));

  for (const width of [320, 360, 448]) {
    it(`at ${width} px: one height while it upgrades and loads, no layout shift`, async () => {
      const run = await watch({ width, lang: 'en', until: 'entering' });
      expect(run.heights, `heights seen: ${run.heights.join(' → ')}`).to.have.length(1);
      expect(run.shifts, `moved: ${run.moved.join('; ')}`).to.equal(0);
    });
  }

  for (const width of [320, 448]) {
    // A remembered number is known at the first render (the box, the two links and the operator's
    // row), not before the script runs: from there on nothing moves (docs/embedding.md says so).
    it(`at ${width} px with a remembered number: one height from the first render while it looks it up`, async () => {
      localStorage.setItem(numberMemoryKey, JSON.stringify({ typed: typedNumber, country: 'BJ', useWallet: false }));
      const run = await watch({ width, lang: 'en', until: 'ready', from: 'first-render' });
      expect(run.heights, `heights seen: ${run.heights.join(' → ')}`).to.have.length(1);
      expect(run.shifts, `moved: ${run.moved.join('; ')}`).to.equal(0);
    });
  }
});
