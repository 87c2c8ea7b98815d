/**
 * What a ratio to the bare route allows, in work per notification (issue 43): the bare route of
 * bench/companion.ts under the same load, then the same route keeping its event loop busy 25 to
 * 300 µs more per request. The ratio a route reaches is bounded by its work per request on this
 * machine, whatever that work is; this reads a ratio target as the number of µs of the companion's
 * own work (verifying, keeping, applying, delivering) that fits in it.
 *
 * The load generator shares the machine's cores with the server, as in bench/companion.ts: on a
 * 2-core machine the bare route's figure is partly the generator's limit, and so is this budget.
 *
 * Run alone: `npx tsx bench/route-budget.ts` (about 30 s).
 */
import { pathToFileURL } from 'node:url';
import { measureReference, type Figure } from './companion.js';

const WORK_US = [25, 50, 100, 150, 200, 300];

export async function benchRouteBudget(): Promise<Figure[]> {
  const [bare] = await measureReference();
  const figures: Figure[] = [bare!];
  for (const workUs of WORK_US) {
    const [busy] = await measureReference(workUs);
    figures.push(busy!, { name: `bare route + ${workUs} µs: ratio to the bare route`, value: busy!.value / bare!.value, unit: 'x' });
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { loadavg } = await import('node:os');
  console.log(`load average at the start: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  for (const figure of await benchRouteBudget()) {
    console.log(`${figure.name}: ${Number.isInteger(figure.value) ? figure.value : figure.value.toFixed(2)} ${figure.unit}`);
  }
  console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
}
