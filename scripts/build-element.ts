/**
 * `npm run build:element`: builds the browser package (packages/element, `@momo-checkout/element`)
 * from the same sources as the root package's browser entries: the ES modules and declarations
 * (tsconfig.element.json), the script-tag files with their SRI manifest (scripts/build-browser.ts),
 * and the custom-elements manifest.
 *
 * Tests call `buildElement(stagingDir)` to build a copy of the package elsewhere and pack it.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowser } from './build-browser.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const elementPackageDir = join(root, 'packages', 'element');

function tsc(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tsc ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

/** Builds the package into `dir`; another folder than packages/element gets a copy of its files first. */
export async function buildElement(dir = elementPackageDir): Promise<string> {
  const target = isAbsolute(dir) ? dir : join(root, dir);
  if (target !== elementPackageDir) {
    await mkdir(target, { recursive: true });
    for (const entry of ['package.json', 'README.md', 'types']) await cp(join(elementPackageDir, entry), join(target, entry), { recursive: true });
  }
  await tsc(['-p', 'tsconfig.element.json', '--outDir', join(target, 'dist')]);
  await buildBrowser(join(target, 'dist', 'browser'));
  await cp(join(root, 'custom-elements.json'), join(target, 'custom-elements.json'));
  return target;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`built ${await buildElement(process.argv[2])}`);
}
