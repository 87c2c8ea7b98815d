/** startSandbox: the simulator served over real HTTP on 127.0.0.1 with @hono/node-server. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { buildSandbox } from './sandbox.js';
import type { RunningSandbox, StartSandboxOptions } from './types.js';

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { sandbox, handle, shutdown } = buildSandbox(options);
  const host = options.host ?? '127.0.0.1';
  // A client sending its request slowly is cut after `requestTimeoutMs` rather than Node's 300 s
  // (Node checks every `connectionsCheckingInterval`, 30 s by default).
  const requestTimeout = options.requestTimeoutMs ?? 15_000;
  const server = createAdaptorServer({
    fetch: (request, env) => handle(request, env.incoming.socket),
    serverOptions: { requestTimeout, headersTimeout: Math.min(10_000, requestTimeout), connectionsCheckingInterval: Math.min(2_000, requestTimeout) },
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  let closed: Promise<void> | undefined;
  const running: RunningSandbox = {
    fetch: sandbox.fetch,
    control: sandbox.control,
    apiKey: sandbox.apiKey,
    get webhookSecret() {
      return sandbox.webhookSecret;
    },
    url,
    close: () => {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await shutdown();
        await stopped;
      })();
      return closed;
    },
  };
  return running;
}
