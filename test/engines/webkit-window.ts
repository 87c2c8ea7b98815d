/**
 * The 360 px WebKit screen: test/engines/webkit-window.py (a WebKitGTK window of our own through
 * PyGObject, because MiniBrowser stops at 447 px) under its own `xvfb-run`, one page per call.
 */
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FirstStepLayout } from './engine-page.js';

const script = fileURLToPath(new URL('./webkit-window.py', import.meta.url));
const inPage = fileURLToPath(new URL('./in-page.js', import.meta.url));
/** Debian's python3 (the one python3-gi is for), not whatever python3 comes first on PATH. */
export const webkitPython = process.env.WEBKIT_PYTHON || '/usr/bin/python3';

export interface WindowReport {
  layout: FirstStepLayout;
  /** Console errors and uncaught exceptions the page produced. */
  problems: string[];
}

/** Opens `url` at `width` × `height`, waits until `readyExpression` holds, measures and saves a PNG. */
export async function webkitWindow(url: string, width: number, height: number, png: string, readyExpression: string): Promise<WindowReport> {
  if (!(await access(webkitPython, constants.X_OK).then(() => true, () => false))) {
    throw new Error(`${webkitPython} is missing: install Debian's python3-gi, python3-gi-cairo and gir1.2-webkit2-4.1 packages (or run scripts/ensure-test-tools.sh as root).`);
  }
  const child = spawn('/usr/bin/xvfb-run', ['-a', '-s', '-screen 0 1600x1200x24', webkitPython, script, url, String(width), String(height), png, inPage, readyExpression], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = stdout.trim().split('\n').pop() ?? '';
  let report: Partial<WindowReport> & { error?: string };
  try {
    report = JSON.parse(line) as typeof report;
  } catch {
    throw new Error(`the WebKit window said nothing readable (exit code ${code}): ${stderr.slice(-800)}`);
  }
  if (code !== 0 || report.error || !report.layout) throw new Error(`the WebKit window failed: ${report.error ?? `exit code ${code}`}; ${stderr.slice(-800)}`);
  return { layout: report.layout, problems: report.problems ?? [] };
}
