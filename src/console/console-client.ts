/**
 * The console page's client for its routes (`<publicUrl>/console/api/*`): the session cookie goes by
 * itself (same origin), the CSRF token the session route gave is sent with every POST. A 401 means
 * the session ended: the page goes back to sign-in.
 */
import { csrfHeader, type ConsoleSession } from '../contract/console.js';

/** A refusal of the console's routes, with the sentence the server wrote. */
export class ConsoleRequestError extends Error {
  override name = 'ConsoleRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class ConsoleClient {
  private csrfToken = '';

  constructor(readonly base: string) {}

  async start(): Promise<ConsoleSession> {
    const session = await this.get<ConsoleSession>('/api/session');
    this.csrfToken = session.csrfToken;
    return session;
  }

  get csrf(): string {
    return this.csrfToken;
  }

  get<T>(path: string): Promise<T> {
    return this.send<T>(path, { method: 'GET' });
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.send<T>(path, {
      method: 'POST',
      headers: { [csrfHeader]: this.csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  private async send<T>(path: string, init: RequestInit): Promise<T> {
    const response = await fetch(`${this.base}${path}`, { ...init, credentials: 'same-origin' });
    if (response.status === 401) {
      // The session ended: the console's own page shows the sign-in form again.
      location.assign(this.base);
    }
    const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    if (!response.ok) throw new ConsoleRequestError(response.status, body?.error?.code ?? 'HTTP', body?.error?.message ?? `HTTP ${response.status}`);
    return body as T;
  }
}
