/**
 * Lighthouse on the demo store's checkout page (issue 32): the npm registry's `lighthouse` (pinned
 * in package.json) against Debian's Chromium (`CHROME_PATH`, scripts/chromium.mjs), mobile (its
 * default: a mid-range phone on a throttled 4G, simulated) and desktop (`--preset=desktop`), three
 * runs each, the median of each figure: the four category scores and Cumulative Layout Shift.
 * Targets: CLS <= 0.01; accessibility, best practices and SEO 100; performance as measured.
 *
 * The demo runs in this process against its sandbox, on loopback; Lighthouse opens `/`, which
 * places a new order and shows it (no redirect). A payment link's pages (issue 44) are measured the
 * same way, on a companion of their own (link-pages.ts): a fixed amount's page and a payer-chosen
 * amount's (reusable links, which search engines may index), and a single-use link's (`noindex`). `BENCH_LIGHTHOUSE_PAGES=links` (or `demo`) measures only those. Run alone:
 * `npx tsx bench/lighthouse.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemo } from '../demo/start-demo.js';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { createLogger } from '../src/server/index.js';
import { startLinkPages } from './link-pages.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const lighthouseBin = fileURLToPath(new URL('../node_modules/lighthouse/cli/index.js', import.meta.url));

interface Report {
  categories: Record<(typeof categories)[number], { score: number | null }>;
  audits: Record<string, { numericValue?: number; score: number | null; title: string }>;
  runtimeError?: { message: string };
}

/** One Lighthouse run, as its CLI does it, read from its JSON report. */
async function lighthouseOnce(url: string, preset: 'mobile' | 'desktop', dir: string, index: number): Promise<Report> {
  const output = join(dir, `${preset}-${index}.json`);
  const args = [
    lighthouseBin,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${output}`,
    `--only-categories=${categories.join(',')}`,
    `--chrome-flags=--headless=new ${chromiumArgs.join(' ')}`,
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromiumPath }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse exited with ${code}: ${stderr.slice(-600)}`))));
  });
  const report = JSON.parse(await readFile(output, 'utf8')) as Report;
  if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.message}`);
  return report;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Audits below a full score in the median run's categories (not performance), for the reader to fix. */
function failing(report: Report): string[] {
  return Object.entries(report.audits)
    .filter(([, audit]) => audit.score !== null && audit.score < 1)
    .map(([id]) => id);
}

/** The four scores, CLS and LCP of one page, mobile and desktop, each the median of `runs`; figure names start with `label`. */
async function measurePage(label: string, url: string, dir: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const preset of ['mobile', 'desktop'] as const) {
    const reports: Report[] = [];
    for (let index = 0; index < runs; index++) reports.push(await lighthouseOnce(url, preset, dir, index));
    for (const category of categories) {
      figures.push({ name: `${label}${preset}: ${category}`, value: median(reports.map((r) => Math.round((r.categories[category].score ?? 0) * 100))), unit: '/100' });
    }
    figures.push({ name: `${label}${preset}: cumulative layout shift`, value: median(reports.map((r) => r.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN)), unit: '' });
    figures.push({ name: `${label}${preset}: largest contentful paint`, value: median(reports.map((r) => r.audits['largest-contentful-paint']?.numericValue ?? Number.NaN)) / 1000, unit: 's' });
    if (process.env.BENCH_LIGHTHOUSE_VERBOSE) console.log(`${label}${preset}: audits below 1 in the last run: ${failing(reports.at(-1)!).join(', ')}`);
  }
  return figures;
}

export async function benchLighthouse(): Promise<Figure[]> {
  const only = process.env.BENCH_LIGHTHOUSE_PAGES;
  const dir = await mkdtemp(join(tmpdir(), 'momo-lighthouse-'));
  const figures: Figure[] = [];
  try {
    if (only !== 'links') {
      const demo = await startDemo({ port: 0, log: () => {}, companionLog: createLogger({ level: 'error', sink: () => {} }) });
      try {
        figures.push(...(await measurePage('', `${demo.url}/`, dir)));
      } finally {
        await demo.close();
      }
    }
    if (only !== 'demo') {
      const links = await startLinkPages();
      try {
        for (const page of [...links.pages, links.singleUse]) figures.push(...(await measurePage(`${page.label}, `, page.url, dir)));
      } finally {
        await links.close();
      }
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const figure of await benchLighthouse()) {
    const value = Number.isInteger(figure.value) ? String(figure.value) : figure.value.toFixed(3);
    console.log(`${figure.name.padEnd(40)} ${value.padStart(8)} ${figure.unit}`);
  }
}
