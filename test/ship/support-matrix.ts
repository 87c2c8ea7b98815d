/**
 * The declared browser support matrix (package.json `browserslist`, docs/embedding.md "Browser
 * support") as the oldest version per browser, and MDN's compat data (@mdn/browser-compat-data)
 * asked whether a feature works there. A maintained dataset rather than a hand list of versions.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import browserslist from 'browserslist';

const require = createRequire(import.meta.url);

/** browserslist's names → MDN compat data's. */
const bcdBrowser: Record<string, string> = {
  chrome: 'chrome',
  and_chr: 'chrome_android',
  edge: 'edge',
  samsung: 'samsunginternet_android',
  safari: 'safari',
  ios_saf: 'safari_ios',
  firefox: 'firefox',
  and_ff: 'firefox_android',
};

interface SupportStatement {
  version_added: string | boolean | null;
  version_removed?: string | boolean | null;
  flags?: unknown[];
  prefix?: string;
  alternative_name?: string;
  partial_implementation?: boolean;
}

export interface CompatNode {
  __compat?: { support: Record<string, SupportStatement | SupportStatement[]>; status?: { deprecated?: boolean } };
  [key: string]: CompatNode | CompatNode['__compat'];
}

export const compatData = JSON.parse(readFileSync(require.resolve('@mdn/browser-compat-data'), 'utf8')) as Record<string, CompatNode>;

/** `18.5-18.7` → 18.5; `≤18` → 18. */
const versionNumber = (version: string): number => Number.parseFloat(version.replace(/^≤/, '').split('-')[0]!);

/** The oldest version of each browser in the package's browserslist, in MDN's browser names. */
export function supportMatrix(queries: string[]): Map<string, number> {
  const oldest = new Map<string, number>();
  // Chrome for Android's own list holds one version only; mobileToDesktop gives its real range.
  for (const entry of browserslist(queries, { mobileToDesktop: true })) {
    const [name, version] = entry.split(' ') as [string, string];
    const bcd = bcdBrowser[name];
    if (!bcd) throw new Error(`browserslist gave ${entry}: map ${name} to MDN's browser name in test/ship/support-matrix.ts`);
    const number = versionNumber(version);
    if (!oldest.has(bcd) || number < oldest.get(bcd)!) oldest.set(bcd, number);
  }
  return oldest;
}

/** The compat entry at a dotted path (`css.selectors.has`), or undefined. */
export function compatAt(path: string): CompatNode | undefined {
  let node: CompatNode | undefined = { ...compatData } as CompatNode;
  for (const key of path.split('.')) node = node?.[key] as CompatNode | undefined;
  return node?.__compat ? node : undefined;
}

/** Whether MDN says the feature works, without a flag or a prefix, from this version on. */
export function supportedIn(node: CompatNode, browser: string, version: number): boolean {
  const raw = node.__compat?.support[browser];
  const statements = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return statements.some((statement) => {
    if (statement.flags || statement.prefix || statement.alternative_name) return false;
    const added = statement.version_added;
    if (added !== true && (typeof added !== 'string' || added === 'preview' || versionNumber(added) > version)) return false;
    // A statement replaced later (a partial implementation made whole) still covers its range.
    const removed = statement.version_removed;
    return removed === undefined || removed === null || removed === false || (typeof removed === 'string' && versionNumber(removed) > version);
  });
}

/** Browsers of the matrix where MDN calls the support partial (reported, not failed). */
export function partialIn(node: CompatNode, matrix: Map<string, number>): string[] {
  return [...matrix]
    .filter(([browser, version]) => {
      const raw = node.__compat?.support[browser];
      const statements = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      const current = statements.find((statement) => supportedIn({ __compat: { support: { [browser]: statement } } }, browser, version));
      return current?.partial_implementation === true;
    })
    .map(([browser, version]) => `${browser} ${version}`);
}

/** The browsers of the matrix (with their oldest version) where the feature does not work. */
export function missingIn(node: CompatNode, matrix: Map<string, number>): string[] {
  return [...matrix].filter(([browser, version]) => !supportedIn(node, browser, version)).map(([browser, version]) => `${browser} ${version}`);
}
