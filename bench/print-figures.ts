import { pathToFileURL } from 'node:url';
import type { Figure } from './console-list.js';

/**
 * Prints a bench's figures as they come when its file is run alone (`npx tsx bench/x.ts`: a run
 * takes minutes at volume), and passes them on unprinted when `npm run bench` collects them.
 */
export function printWhenRunAlone(benchUrl: string, figures: Figure[]): Figure[] {
  if (benchUrl === pathToFileURL(process.argv[1] ?? '').href) for (const figure of figures) console.log(`${figure.name.padEnd(48)} ${String(figure.value).padStart(10)} ${figure.unit}`);
  return figures;
}
