/**
 * `npm run bench`: runs every benchmark and prints one table. Figures go into the README by hand;
 * no test asserts a time (timed tests flake on shared machines).
 */
interface Figure {
  name: string;
  value: number;
  unit: string;
}

type Bench = () => Promise<Figure[]>;

const benches: Array<[string, () => Promise<Bench>]> = [
  ['webhook verification', async () => (await import('./webhook-verify.js')).benchWebhookVerify],
  ['companion', async () => (await import('./companion.js')).benchCompanion],
  ['what a ratio to the bare route allows (bare route + µs of work)', async () => (await import('./route-budget.js')).benchRouteBudget],
  ['webhook route with metrics on and off', async () => (await import('./metrics-cost.js')).benchMetricsCost],
  ['service (momo-checkout serve)', async () => (await import('./service.js')).benchService],
  ['script-tag and React sizes', async () => (await import('./ship-size.js')).benchShipSize],
  ['stores (memory, file, Redis, PostgreSQL), one call at a time', async () => (await import('./stores.js')).benchStores],
  ['console list over 10,000 payments (memory, file, Redis, PostgreSQL)', async () => (await import('./console-list.js')).benchConsoleList],
  ['support views over 100,000 finished payments (memory, file, Redis, PostgreSQL)', async () => (await import('./support-views.js')).benchSupportViews],
  ['payments export (CSV) of 100,000 payments (file, memory, PostgreSQL, Redis)', async () => (await import('./export.js')).benchExport],
  ['script-tag parts', async () => (await import('./ship-parts.js')).benchShipParts],
  ['demo page on slow networks', async () => (await import('./page-load.js')).benchPageLoad],
  ["payment link's pages on slow networks", async () => (await import('./page-load.js')).benchLinkPageLoad],
  ["the mobile apps' page on slow networks", async () => (await import('./page-load.js')).benchAppPageLoad],
  ["Lighthouse on the demo page and a payment link's pages (mobile and desktop, median of 3)", async () => (await import('./lighthouse.js')).benchLighthouse],
  ['soak (momo-checkout serve, default store)', async () => (await import('./soak.js')).benchSoak],
  ['restart soak: notifications refused per restart of serve, own port against the socket unit', async () => (await import('./restart-soak.js')).benchRestartSoak],
];

const only = process.argv.slice(2);
let failed = false;
for (const [title, load] of benches) {
  if (only.length > 0 && !only.some((word) => title.includes(word))) continue;
  console.log(`\n## ${title}`);
  try {
    const figures = await (await load())();
    for (const figure of figures) {
      const value = Number.isInteger(figure.value) ? String(figure.value) : figure.value.toFixed(2);
      console.log(`${figure.name.padEnd(58)} ${value.padStart(12)} ${figure.unit}`);
    }
  } catch (error) {
    failed = true;
    console.error(`${title}: failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exitCode = failed ? 1 : 0;
