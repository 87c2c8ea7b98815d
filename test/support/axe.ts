/**
 * axe-core in a Playwright page, whatever its CSP: the library goes in through `page.evaluate` (the
 * DevTools protocol, which a page's `script-src` does not govern), so the page is checked with its
 * real, strict policy in force.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core's own script, to evaluate in a page before `axeRunBody`. */
export function axeSource(): Promise<string> {
  return readFile(axePath, 'utf8');
}

/**
 * A function body (plain JavaScript, for any driver's "run in the page") that runs axe on the
 * document and gives its violations as `AxeViolation[]` (WCAG 2.1 A and AA rules and axe's best
 * practices). Chromium's e2e and the engines suite (test/engines/) run the same rules.
 */
export const axeRunBody = `
  const result = await globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
  return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }));`;

/** The page's accessibility violations (WCAG 2.1 A and AA rules and axe's best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(await axeSource());
  return page.evaluate<AxeViolation[]>(`(async () => {${axeRunBody}\n})()`);
}

/** One line per violation, for an assertion's message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`).join('\n');
}
