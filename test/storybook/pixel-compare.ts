/**
 * Compares a screenshot with its committed baseline, pixel by pixel (pixelmatch). A difference
 * fails with the actual image and a diff image written beside each other, so the reviewer sees
 * what changed; `UPDATE_BASELINES=1` (npm run baselines:update) writes the baseline on purpose.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export const baselineDir = resolve(import.meta.dirname, 'baselines');
export const diffDir = resolve(import.meta.dirname, '../../test-output/visual');

/**
 * How far a pixel's colour may move before it counts (pixelmatch's YIQ distance, 0..1). Small: the
 * same Chromium with the same pinned font draws the same pixels, so only real changes exceed it.
 */
const threshold = 0.02;

/**
 * Anti-aliased pixels (pixelmatch's own detection: an edge pixel between two flat areas) are not
 * counted: Chromium's rasteriser now and then shades a rounded corner or the spinner's arc edge a
 * step differently between runs on a loaded machine, which failed runs with 2 pixels of nothing.
 * A changed colour, border, size or text still changes pixels that are not edges, and fails.
 */
const countAntiAliased = false;

export type Comparison = { kind: 'same' } | { kind: 'updated' } | { kind: 'different'; message: string };

export function compareWithBaseline(name: string, actual: Buffer, update = process.env.UPDATE_BASELINES === '1'): Comparison {
  const baselineFile = join(baselineDir, `${name}.png`);
  if (update) {
    mkdirSync(dirname(baselineFile), { recursive: true });
    writeFileSync(baselineFile, actual);
    return { kind: 'updated' };
  }
  const rel = relative(process.cwd(), baselineFile);
  if (!existsSync(baselineFile)) {
    return { kind: 'different', message: `${rel} is missing: run \`npm run baselines:update\` and commit the new image after looking at it.` };
  }
  const expected = PNG.sync.read(readFileSync(baselineFile));
  const shot = PNG.sync.read(actual);
  const diff = new PNG({ width: Math.max(expected.width, shot.width), height: Math.max(expected.height, shot.height) });
  const sameSize = expected.width === shot.width && expected.height === shot.height;
  const changed = sameSize ? pixelmatch(expected.data, shot.data, diff.data, shot.width, shot.height, { threshold, includeAA: countAntiAliased }) : -1;
  if (changed === 0) return { kind: 'same' };
  const actualFile = join(diffDir, `${name}.actual.png`);
  const diffFile = join(diffDir, `${name}.diff.png`);
  mkdirSync(dirname(actualFile), { recursive: true });
  writeFileSync(actualFile, actual);
  if (sameSize) writeFileSync(diffFile, PNG.sync.write(diff));
  const what = sameSize
    ? `${changed} pixel(s) differ; diff: ${relative(process.cwd(), diffFile)}`
    : `size ${shot.width}x${shot.height}, baseline ${expected.width}x${expected.height}`;
  return {
    kind: 'different',
    message: `${rel}: ${what}; actual: ${relative(process.cwd(), actualFile)}. If the change is intended, run \`npm run baselines:update\`.`,
  };
}
