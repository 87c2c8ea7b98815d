/**
 * The setup checks as lines a person reads: the doctor prints them, and so does a start banner
 * (`npm start`, `momo-checkout serve`). One format, so the two cannot say it differently.
 */
import type { SetupCheck } from './setup-checks.js';

const marks = { ok: 'ok  ', warning: 'WARN', error: 'FAIL' } as const;

/**
 * One line per check, `ok  `, `WARN` or `FAIL` first, then a summary line.
 *
 * @example
 * const lines = formatSetupChecks(await momo.ready(), { indent: '  ' });
 * console.log(lines.join('\n'));
 */
export function formatSetupChecks(checks: readonly SetupCheck[], options: { indent?: string } = {}): string[] {
  const indent = options.indent ?? '';
  const lines = checks.map((check) => `${indent}${marks[check.status]}  ${check.name}: ${check.message}`);
  const errors = checks.filter((check) => check.status === 'error').length;
  const warnings = checks.filter((check) => check.status === 'warning').length;
  lines.push(
    `${indent}${
      errors > 0
        ? `Setup: ${errors} problem(s) to fix before a payer can pay${warnings > 0 ? `, ${warnings} warning(s)` : ''}.`
        : warnings > 0
          ? `Setup: usable, with ${warnings} warning(s) to read.`
          : 'Setup: every check passed.'
    }`,
  );
  return lines;
}
