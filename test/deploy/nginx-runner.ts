/**
 * Debian's nginx running docs/deploy.md's file: the file goes, with only its placeholders
 * replaced, inside a minimal nginx.conf of the test's own, which holds what Debian's
 * /etc/nginx/nginx.conf gives a site (its `http { }` settings) with the pid file, logs and
 * temporary folders in the test's folder. The access log records the protocol each request came
 * in (HTTP/2.0) and the X-Forwarded-For the client sent.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { guideBlock, requireProgram, substitute } from './guide.js';
import { stopChild } from './children.js';
import type { Stack } from './stack.js';

export const nginxBinary = process.env.NGINX_PATH || '/usr/sbin/nginx';

export interface RunningNginx {
  port: number;
  httpPort: number;
  /** The site file as nginx ran it. */
  site: string;
  accessLog(): Promise<string[]>;
  errorLog(): Promise<string>;
  /** Stops nginx (SIGTERM, then SIGKILL after 15 s). */
  stop(): Promise<number | null>;
}

/** What nginx needs of the processes behind it: the test's folder and certificate, the ports the guide's placeholders become. */
export type NginxStack = Pick<Stack, 'dir' | 'cert' | 'key' | 'companionPort' | 'shopPort' | 'spawnChild' | 'until'>;

/**
 * `extra`: more placeholders to replace (the heartbeat test's read timeout, a second process's
 * port); `file`: the guide's nginx file as a merchant edited it by the guide's words (section 8's
 * upstream and location), before the placeholders are replaced.
 */
export async function startNginx(
  stack: NginxStack,
  name: string,
  ports: { port: number; httpPort: number },
  extra: ReadonlyArray<readonly [string, string]> = [],
  file: (guideFile: string) => Promise<string> | string = (guideFile) => guideFile,
): Promise<RunningNginx> {
  requireProgram(nginxBinary, ['-v'], 'nginx');
  const prefix = join(stack.dir, name);
  await mkdir(prefix, { recursive: true });
  // Run as root, nginx's workers are `nobody`: they write request bodies under the prefix.
  await Promise.all([chmod(stack.dir, 0o711), chmod(prefix, 0o711)]);
  const site = substitute(await file(await guideBlock('nginx.conf')), [
    ['listen 443 ssl http2;', `listen 127.0.0.1:${ports.port} ssl http2;`],
    ['listen 80;', `listen 127.0.0.1:${ports.httpPort};`],
    ['127.0.0.1:3000', `127.0.0.1:${stack.companionPort}`],
    ['127.0.0.1:8000', `127.0.0.1:${stack.shopPort}`],
    ['/etc/letsencrypt/live/shop.example/fullchain.pem', stack.cert],
    ['/etc/letsencrypt/live/shop.example/privkey.pem', stack.key],
    ...extra,
  ]);
  await writeFile(join(prefix, 'momo-checkout'), site);
  const accessLog = join(prefix, 'access.log');
  await writeFile(
    join(prefix, 'nginx.conf'),
    `worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 256; }
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ssl_prefer_server_ciphers on;
    gzip on;
    log_format deploy '$server_protocol $request_method $uri $status "$http_x_forwarded_for"';
    access_log ${accessLog} deploy;
    client_body_temp_path ${join(prefix, 'client_body')};
    proxy_temp_path ${join(prefix, 'proxy')};
    fastcgi_temp_path ${join(prefix, 'fastcgi')};
    uwsgi_temp_path ${join(prefix, 'uwsgi')};
    scgi_temp_path ${join(prefix, 'scgi')};
    include ${join(prefix, 'momo-checkout')};
}
`,
  );
  const child = stack.spawnChild(name, nginxBinary, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log'), '-g', 'daemon off;']);
  await stack.until(`${name} to listen on ${ports.port}`, () => listening(ports.port));
  return {
    ...ports,
    site,
    stop: () => stopChild(child),
    accessLog: async () => (await readFile(accessLog, 'utf8').catch(() => '')).split('\n').filter(Boolean),
    errorLog: () => readFile(join(prefix, 'error.log'), 'utf8').catch(() => ''),
  };
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
