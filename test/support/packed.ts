/**
 * The two packages as `npm pack` makes them, built into a staging folder (never into the work
 * tree): the back end's `momo-checkout` and the browser's `@momo-checkout/element`. Tests install
 * the tarballs as a merchant's app installs them from the registry.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBrowser } from '../../scripts/build-browser.js';
import { buildElement } from '../../scripts/build-element.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a command, resolving its output; rejects with the output on a non-zero exit. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

async function pack(stage: string, destination: string): Promise<string> {
  // --ignore-scripts: the stage is already built (prepack would build the work tree instead).
  const packed = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination], stage);
  return join(destination, packed.trim().split('\n').pop()!);
}

/** `momo-checkout` (what a back end installs): package.json `files`, built as `npm run build` builds it. */
export async function packBackend(dir: string): Promise<string> {
  const stage = join(dir, 'momo-checkout');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  mkdirSync(stage, { recursive: true });
  for (const entry of ['package.json', ...manifest.files.filter((file) => file !== 'dist')]) cpSync(join(root, entry), join(stage, entry), { recursive: true });
  await run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', join(stage, 'dist')], root);
  await buildBrowser(join(stage, 'dist', 'browser'));
  return pack(stage, dir);
}

/** `@momo-checkout/element` (what a browser app installs), built as `npm run build:element` builds it. */
export async function packElement(dir: string): Promise<string> {
  return pack(await buildElement(join(dir, 'element')), dir);
}
