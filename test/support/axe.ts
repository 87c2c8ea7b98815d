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

/** The page's accessibility violations (WCAG 2.1 A and AA rules and axe's best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const source = await readFile(axePath, 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target as string[] })) }));
  });
}

/** One line per violation, for an assertion's message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`).join('\n');
}
