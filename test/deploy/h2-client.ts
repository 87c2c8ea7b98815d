/**
 * A client of the proxy over TLS and HTTP/2 (node:http2), trusting the test's certificate only:
 * the negotiated protocol (ALPN) is checked, and a response body is read chunk by chunk with the
 * time each chunk arrived, to tell a stream written as it happens from one the proxy buffered.
 */
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { readFileSync } from 'node:fs';

export interface Chunk {
  at: number;
  text: string;
}

export interface H2Stream {
  status: Promise<number>;
  headers: Promise<IncomingHttpHeaders>;
  chunks: Chunk[];
  /** Resolves when the server ended the stream (or rejects on a reset). */
  ended: Promise<void>;
  text(): string;
  cancel(): void;
}

export class H2Client {
  readonly session: ClientHttp2Session;

  private constructor(session: ClientHttp2Session) {
    this.session = session;
  }

  static async connect(origin: string, certFile: string): Promise<H2Client> {
    const session = connect(origin, { ca: readFileSync(certFile) });
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve());
      session.once('error', reject);
    });
    return new H2Client(session);
  }

  /** `h2` when HTTP/2 was negotiated over TLS. */
  get alpn(): string | false | undefined {
    return this.session.alpnProtocol;
  }

  open(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): H2Stream {
    const request = this.session.request({ ':method': init.method ?? 'GET', ':path': path, ...init.headers }, { endStream: init.body === undefined });
    if (init.body !== undefined) request.end(init.body);
    const chunks: Chunk[] = [];
    request.setEncoding('utf8');
    request.on('data', (text: string) => chunks.push({ at: Date.now(), text }));
    const headers = new Promise<IncomingHttpHeaders>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    const ended = new Promise<void>((resolve, reject) => {
      request.once('end', resolve);
      request.once('error', reject);
    });
    ended.catch(() => undefined);
    return {
      headers,
      status: headers.then((answer) => Number(answer[':status'])),
      chunks,
      ended,
      text: () => chunks.map((chunk) => chunk.text).join(''),
      cancel: () => request.close(),
    };
  }

  /** A whole request: status, headers and body text. */
  async fetch(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const stream = this.open(path, init);
    const headers = await stream.headers;
    await stream.ended;
    return { status: Number(headers[':status']), headers, body: stream.text() };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.session.close(() => resolve()));
  }
}
