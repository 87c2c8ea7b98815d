/**
 * What each part of the script-tag file costs (issue 10, "fewer bytes"): the IIFE built as
 * `npm run build:browser` builds it, then again with one part replaced by a stub; the difference
 * in gzip -9 bytes is that part's cost in the file payers download. Lit is measured as a bundle of
 * a tiny Lit element (what any Lit component ships), and "the rest" is our own code.
 *
 * Run alone: npx tsx bench/ship-parts.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { scriptTagConfig } from '../vite.browser.config.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** Module path suffix → the code that replaces it. */
type Stubs = Record<string, string>;

const parts: Array<[name: string, stubs: Stubs]> = [
  ['phone metadata (20 countries, min, without formats)', { 'src/element/phone-metadata.generated.ts': 'export const metadataCountries = []; export const phoneMetadata = { country_calling_codes: {}, countries: {} };' }],
  ['phone reader', { 'src/element/phone-read.ts': "export function readPhone() { return { ok: false, code: 'INVALID' }; } export function callingCodeOf() {} export function compactNumber(t) { return t; }" }],
  ['styles', { 'src/element/styles/checkout-styles.ts': "import { css } from 'lit'; export const styles = css``;" }],
  ['answer guards', { 'src/client/guards.ts': 'export class AnswerShapeError extends Error {}; const id = (x) => x; export const paymentView = id, paymentOrNull = id, checkoutView = id, lookupResponse = id, previewResponse = id, approvalQr = id, companionError = id;' }],
  ['status stream parser', { 'src/client/sse-parser.ts': "export function createSseParser() { return { push() {}, lastEventId: '', retryMs: null }; }" }],
];

// Its properties declared as the element declares its own (static properties, no decorators).
const litOnly = `import { LitElement, html, css } from 'lit';
class X extends LitElement { static styles = css\`:host{display:block}\`; static properties = { a: {}, b: { state: true } }; render() { return html\`<p>\${this.a}</p>\`; } }
customElements.define('x-x', X);`;

async function gzipOfIife(stubs: Stubs, litAlone = false): Promise<number> {
  const outDir = await mkdtemp(join(tmpdir(), 'momo-parts-'));
  try {
    // Inside the project, so that `lit` resolves from its node_modules.
    const entry = litAlone ? join(root, 'node_modules', '.cache', 'momo-bench', 'lit-only.js') : undefined;
    if (entry) {
      await mkdir(join(entry, '..'), { recursive: true });
      await writeFile(entry, litOnly);
    }
    const stub: Plugin = {
      name: 'momo-bench-stub',
      enforce: 'pre',
      load(id) {
        const normalized = id.replace(/\\/g, '/');
        for (const [suffix, code] of Object.entries(stubs)) if (normalized.endsWith(suffix)) return code;
        return null;
      },
    };
    const base = scriptTagConfig({ outDir, formats: ['iife'], fileName: () => 'x.js' });
    const output = await build({
      ...base,
      logLevel: 'silent',
      configFile: false,
      plugins: [stub, ...(base.plugins ?? [])],
      build: { ...base.build, write: false, ...(entry ? { lib: { ...(base.build!.lib as object), entry } } : {}) },
    } as Parameters<typeof build>[0]);
    const first = (Array.isArray(output) ? output : [output])[0] as { output: Array<{ type: string; code?: string }> };
    const chunk = first.output.find((item) => item.type === 'chunk');
    return gzipSync(chunk!.code!, { level: 9 }).length;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export async function benchShipParts(): Promise<Figure[]> {
  const whole = await gzipOfIife({});
  const figures: Figure[] = [{ name: 'script tag IIFE, whole, gzip -9', value: whole / 1024, unit: 'KB' }];
  let accounted = 0;
  const lit = await gzipOfIife({}, true);
  figures.push({ name: 'Lit (a minimal Lit element)', value: lit / 1024, unit: 'KB' });
  accounted += lit;
  for (const [name, stubs] of parts) {
    const cost = whole - (await gzipOfIife(stubs));
    accounted += cost;
    figures.push({ name, value: cost / 1024, unit: 'KB' });
  }
  figures.push({ name: 'the rest: element, machine, client, English table', value: (whole - accounted) / 1024, unit: 'KB' });
  return figures;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const figure of await benchShipParts()) console.log(`${figure.name.padEnd(52)} ${figure.value.toFixed(2).padStart(8)} ${figure.unit}`);
}
