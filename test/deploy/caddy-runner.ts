/**
 * Debian's Caddy (2.6) running a site from docs/deploy.md: the test puts a global block of its own
 * before the guide's site (no admin endpoint, Caddy's data in the test's folder, no http-to-https
 * listener on port 80). Caddy missing fails the test with the package to install.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { guideBlock, requireProgram, substitute } from './guide.js';
import { listening } from './nginx-runner.js';
import { stopChild } from './children.js';
import type { Stack } from './stack.js';

const caddyBinary = process.env.CADDY_PATH || '/usr/bin/caddy';

export interface RunningCaddy {
  /** The Caddyfile as Caddy ran it, the test's global block first. */
  caddyfile: string;
  stop(): Promise<number | null>;
}

/**
 * The guide's Caddyfile (section 5) with its placeholders replaced (deploy.md's table); `file`: as
 * a merchant edited it by the guide's words (section 8), before they are; `extra`: more of them.
 */
export async function guideCaddySite(
  stack: Pick<Stack, 'origin' | 'companionPort' | 'shopPort' | 'cert' | 'key'>,
  extra: ReadonlyArray<readonly [string, string]> = [],
  file: (guideFile: string) => Promise<string> | string = (guideFile) => guideFile,
): Promise<string> {
  return substitute(await file(await guideBlock('Caddyfile')), [
    ['shop.example {', `${stack.origin} {`],
    ['127.0.0.1:3000', `127.0.0.1:${stack.companionPort}`],
    ['127.0.0.1:8000', `127.0.0.1:${stack.shopPort}`],
    ['/etc/letsencrypt/live/shop.example/fullchain.pem', stack.cert],
    ['/etc/letsencrypt/live/shop.example/privkey.pem', stack.key],
    ...extra,
  ]);
}

/** Caddy serving `site` (a guide's site block, its placeholders replaced), listening on `port`. */
export async function startCaddy(stack: Pick<Stack, 'dir' | 'spawnChild' | 'until'>, name: string, site: string, port: number): Promise<RunningCaddy> {
  requireProgram(caddyBinary, ['version'], 'caddy');
  const caddyfile = `{\n\tadmin off\n\tauto_https disable_redirects\n\tstorage file_system ${join(stack.dir, `${name}-data`)}\n\tskip_install_trust\n}\n\n${site}\n`;
  const path = join(stack.dir, `${name}.Caddyfile`);
  await writeFile(path, caddyfile);
  const child = stack.spawnChild(name, caddyBinary, ['run', '--config', path, '--adapter', 'caddyfile'], { XDG_DATA_HOME: stack.dir, XDG_CONFIG_HOME: stack.dir });
  await stack.until(`${name} to listen on ${port}`, () => listening(port));
  return { caddyfile, stop: () => stopChild(child) };
}
