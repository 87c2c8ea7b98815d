/**
 * `npm start`: the demo store. Against the in-process sandbox unless `MOMO_BASE_URL` is set; then
 * against that service with `MOMO_API_KEY`, `MOMO_WEBHOOK_SECRETS` and `MOMO_PUBLIC_URL` (the https
 * address that reaches this server, plus the companion's path, e.g. https://abc.tunnel.example/momo).
 * Against a local stand-in of the service on this machine, `MOMO_ALLOW_INSECURE_LOCAL_URLS=1` lets
 * `MOMO_PUBLIC_URL` be `http://127.0.0.1:PORT/momo` (with a loud warning at start).
 * `PORT` (default 8080) and `HOST` (default 127.0.0.1) say where the page listens; `MOMO_CONSOLE_PASSWORD`
 * (16 characters or more) opens the operations console at `/momo/console`. Ctrl-C stops it.
 */
import { CompanionConfigError, companionOptionsFromEnv } from '../src/server/index.js';
import { startBanner } from './banner.js';
import { DemoConfigError, startDemo, type DemoServiceOptions } from './start-demo.js';

function fail(message: string): never {
  console.error(`demo: ${message}`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be an integer from 0 to 65535 (got ${process.env.PORT}).`);
const host = process.env.HOST ?? '127.0.0.1';

let service: DemoServiceOptions | null = null;
if (process.env.MOMO_BASE_URL?.trim()) {
  try {
    service = companionOptionsFromEnv(process.env);
  } catch (error) {
    if (error instanceof CompanionConfigError) fail(error.message);
    throw error;
  }
}

const pushDelay = process.env.PUSH_DELAY_MS ? Number(process.env.PUSH_DELAY_MS) : undefined;
let demo: Awaited<ReturnType<typeof startDemo>>;
try {
  const allowedOrigins = (process.env.MOMO_ALLOWED_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  demo = await startDemo({
    port,
    host,
    service,
    allowedOrigins,
    ...(process.env.MOMO_CONSOLE_PASSWORD?.trim() ? { consolePassword: process.env.MOMO_CONSOLE_PASSWORD.trim() } : {}),
    ...(pushDelay !== undefined && Number.isFinite(pushDelay) ? { sandbox: { pushDelayMs: pushDelay } } : {}),
  });
} catch (error) {
  if (error instanceof DemoConfigError || error instanceof CompanionConfigError) fail(error.message);
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`port ${port} on ${host} is taken: set PORT to another one (PORT=8081 npm start).`);
  throw error;
}

// Listening already: the banner waits only for the setup checks, which run in the background.
const checks = await demo.setupChecks;
const lines = startBanner({
  demo,
  checks,
  ...(service ? { publicUrl: service.publicUrl, insecureLocal: service.allowInsecureLocalUrls === true } : {}),
});
console.log(lines.join('\n'));

let stopping = false;
function stop(signal: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`demo: ${signal} received, stopping`);
  demo.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`demo: could not stop cleanly: ${String(error)}`);
      process.exit(1);
    },
  );
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
