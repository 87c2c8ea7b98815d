/**
 * test/engines/app-webview.py from a test: a WebKitGTK WebView registered as an iOS app registers
 * its WKWebView (a script message handler under the channel's name, a navigation policy for the
 * app's scheme), under its own `xvfb-run`, driven over its stdin and read from its stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AppHost } from '../support/app-flows.js';
import { webkitPython } from './webkit-window.js';

const script = fileURLToPath(new URL('./app-webview.py', import.meta.url));

/** Opens `url` in the WebView; `channel` null registers no message handler (the return address's case). */
export async function openAppWebView(url: string, channel: string | null, scheme: string): Promise<AppHost> {
  // Its own process group, so that closing stops Xvfb and the WebView together.
  const child: ChildProcess = spawn('/usr/bin/xvfb-run', ['-a', '-s', '-screen 0 800x900x24', webkitPython, script, url, channel ?? '-', scheme], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const host: AppHost = { messages: [], navigations: [], newWindows: [], problems: [], loads: 0, run, reload, close };
  const waiting = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  let stderr = '';
  let counter = 0;
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let report: any;
    try {
      report = JSON.parse(line);
    } catch {
      return; // GTK's own chatter
    }
    if (typeof report.id === 'number') {
      const pending = waiting.get(report.id);
      waiting.delete(report.id);
      if ('error' in report) pending?.reject(new Error(`WebKit: ${report.error}`));
      else pending?.resolve(report.value);
    } else if (report.event === 'message') host.messages.push(report.body);
    else if (report.event === 'navigation') host.navigations.push(report.url);
    else if (report.event === 'new-window') host.newWindows.push(report.url);
    else if (report.event === 'problem') host.problems.push(report.text);
    else if (report.event === 'load') host.loads++;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  void exited.then(() => {
    for (const pending of waiting.values()) pending.reject(new Error(`the WebKit WebView exited: ${stderr}`));
  });

  function send<T>(command: object): Promise<T> {
    const id = ++counter;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }
  function run<T>(body: string): Promise<T> {
    return send<T>({ eval: body });
  }
  async function reload(): Promise<void> {
    const before = host.loads;
    await send({ reload: true });
    const until = Date.now() + 15_000;
    while (host.loads === before) {
      if (Date.now() > until) throw new Error('WebKit: the reload did not finish loading within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  async function close(): Promise<void> {
    child.stdin!.end();
    const quit = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000))]);
    if (!quit && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
  return host;
}
