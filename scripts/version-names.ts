/**
 * The names that carry the package version outside package.json's `version`: the script-tag files
 * (`momo-checkout-<version>.js`, `.mjs`, `.<lang>.js`), CDN URLs (`momo-checkout@<version>`) and
 * `npm pack`'s tarballs (`momo-checkout-<version>.tgz`) in the docs and the shop examples,
 * package.json's `unpkg` and `jsdelivr`, and the framework examples' dependencies. changesets bumps `version` only; `npm run version-packages` runs this
 * afterwards so a merchant copying a snippet gets the release it reads about (issue 36).
 * test/ship/version-names.test.ts fails when one of them names another version.
 *
 * Usage: `tsx scripts/version-names.ts` rewrites them to package.json's version.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where versioned names are written for merchants to copy. CHANGELOG.md files speak of old ones on purpose. */
function filesNamingTheVersion(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return walk(path);
      return /\.(md|php|py|html)$/.test(name) ? [path] : [];
    });
  // The framework examples' manifests (examples/mobile-apps has none: its snippets name no version).
  const examples = readdirSync(join(root, 'examples'))
    .map((name) => join('examples', name, 'package.json'))
    .filter((path) => existsSync(join(root, path)));
  return ['package.json', 'README.md', ...walk('docs'), ...examples];
}

const patterns: Array<{ find: RegExp; replace: (version: string) => string }> = [
  // A script-tag or language file: momo-checkout-0.2.0.js, .mjs, .fr.js.
  { find: /momo-checkout-\d+\.\d+\.\d+(?=(?:\.[a-z]{2})?\.m?js\b)/g, replace: (version) => `momo-checkout-${version}` },
  // A CDN URL of the package: unpkg.com/momo-checkout@0.2.0/...
  { find: /(?<=\/)momo-checkout@\d+\.\d+\.\d+/g, replace: (version) => `momo-checkout@${version}` },
  // A tarball `npm pack` writes, named in the README's install until the packages are published.
  { find: /(?<=momo-checkout(?:-element)?-)\d+\.\d+\.\d+(?=\.tgz\b)/g, replace: (version) => version },
  // An example's dependency on either package.
  { find: /(?<="(?:momo-checkout|@momo-checkout\/element)": ")\d+\.\d+\.\d+(?=")/g, replace: (version) => version },
];

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `path:line: text` for every versioned name that is not `version`'s. */
export function staleVersionNames(version = packageVersion()): string[] {
  const stale: string[] = [];
  for (const path of filesNamingTheVersion()) {
    const lines = readFileSync(join(root, path), 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const { find, replace } of patterns) {
        for (const match of line.matchAll(find)) {
          if (match[0] !== replace(version)) stale.push(`${path}:${index + 1}: ${match[0]}`);
        }
      }
    });
  }
  return stale;
}

/** Rewrites every versioned name to `version`; answers the files changed. */
export function writeVersionNames(version = packageVersion()): string[] {
  const changed: string[] = [];
  for (const path of filesNamingTheVersion()) {
    const before = readFileSync(join(root, path), 'utf8');
    const after = patterns.reduce((text, { find, replace }) => text.replace(find, () => replace(version)), before);
    if (after !== before) {
      writeFileSync(join(root, path), after);
      changed.push(relative(root, join(root, path)));
    }
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = packageVersion();
  const changed = writeVersionNames(version);
  console.log(changed.length > 0 ? `version-names: ${version} written in ${changed.join(', ')}` : `version-names: every name already says ${version}`);
}
