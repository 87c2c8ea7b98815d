/**
 * The script-tag build (issue 5, "Script tag"): `src/define.ts` as one minified IIFE (a plain
 * `<script>`, no module loader) and one ES module (`<script type="module">`), both registering
 * `<momo-checkout>`, with the package version in their names so a release never overwrites a file
 * that pages pin with an `integrity` hash.
 *
 * Run through `npm run build:browser` (scripts/build-browser.ts), which also writes the SRI manifest.
 * Not named `vite.config.ts` on purpose: Storybook's Vite builder merges a root `vite.config.ts`
 * into its own build, and library mode there would break the static site.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { libphonenumberModern } from './scripts/libphonenumber-modern.js';
import { minifyLitCss } from './scripts/minify-lit-css.js';
import { minifyLitHtml } from './scripts/minify-lit-html.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** `momo-checkout-<version>.js` (IIFE) and `.mjs` (ES module). */
export function browserFileName(format: 'iife' | 'es', packageVersion = version): string {
  return `momo-checkout-${packageVersion}.${format === 'es' ? 'mjs' : 'js'}`;
}

/** `momo-checkout-<version>.<code>.js`: one language's file (src/languages/<code>.ts), beside the script-tag file. */
export function languageFileName(code: string, packageVersion = version): string {
  return `momo-checkout-${packageVersion}.${code}.js`;
}

/** A language file the script-tag file loads by itself (issue 32): its name beside it, and its hash. */
export interface LanguageFileRef {
  file: string;
  integrity: string;
}

/**
 * The script-tag file cannot split a chunk per language (one IIFE), so it loads a language's file as a
 * `<script>` with the hash the build gives it: src/localize/load-language-file.ts is swapped for its
 * `.script-tag.ts` twin, and `__MOMO_LANGUAGE_FILES__` carries the names and hashes.
 */
function scriptTagLanguageLoader(languageFiles: Readonly<Record<string, LanguageFileRef>>): Plugin {
  const twin = fileURLToPath(new URL('./src/localize/load-language-file.script-tag.ts', import.meta.url));
  return {
    name: 'momo-script-tag-language-loader',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer && /[\\/]src[\\/](element|localize)[\\/]/.test(importer) && /\/load-language-file\.js$/.test(source) ? twin : null;
    },
    config: () => ({ define: { __MOMO_LANGUAGE_FILES__: JSON.stringify(languageFiles) } }),
  };
}

export interface ScriptTagBuild {
  outDir: string;
  /** Defaults to src/define.ts (the element); a language file's entry is src/languages/<code>.ts. */
  entry?: string;
  /** False when a second build writes into the same folder. Default true. */
  emptyOutDir?: boolean;
  formats: Array<'iife' | 'es'>;
  fileName: (format: 'iife' | 'es') => string;
  /** The element's build: the language files it may load, built (and hashed) before it. */
  languageFiles?: Readonly<Record<string, LanguageFileRef>>;
}

/**
 * The script-tag build's configuration. The demo store builds its bundle with the same one (into a
 * temporary folder, IIFE only), so the demo serves exactly what a merchant's script tag loads.
 */
export function scriptTagConfig(build: ScriptTagBuild): UserConfig {
  return {
    root,
    mode: 'production',
    logLevel: 'warn',
    plugins: [minifyLitCss(), minifyLitHtml(), libphonenumberModern(), scriptTagLanguageLoader(build.languageFiles ?? {})],
    // Lit and friends pick their production builds from NODE_ENV; library mode does not set it.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: build.outDir,
      emptyOutDir: build.emptyOutDir ?? true,
      copyPublicDir: false,
      minify: true,
      sourcemap: false,
      // The payer's browsers: what Lit 3 supports (native custom elements, ES2021).
      // target: 'es2021',
      rolldownOptions: {
        output: { minify: true },
        // load-language-file.script-tag.ts reads import.meta.url for the ES module and falls back to
        // document.currentScript in the IIFE, where the bundler leaves it empty on purpose.
        onLog(level, log, handler) {
          if (log.code !== 'EMPTY_IMPORT_META') handler(level, log);
        },
      },
      lib: {
        entry: build.entry ?? fileURLToPath(new URL('./src/define.ts', import.meta.url)),
        formats: build.formats,
        // The IIFE's global: `window.MomoCheckout` is the element class (a `var`, so two tags do not clash).
        name: 'MomoCheckout',
        fileName: (format) => build.fileName(format === 'es' ? 'es' : 'iife'),
      },
    },
  };
}

export default defineConfig(scriptTagConfig({ outDir: 'dist/browser', formats: ['iife', 'es'], fileName: (format) => browserFileName(format) }));
