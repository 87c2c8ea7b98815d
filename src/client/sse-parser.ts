/**
 * A text/event-stream parser (WHATWG HTML, "Server-sent events", parsing an event stream).
 *
 * Hand-written rather than `EventSource`, because EventSource cannot send the token in an
 * `Authorization` header (it would have to go in the URL, and into logs), and rather than a package
 * (eventsource-parser) because it is ~60 lines and the bundle budget is tight.
 */
export interface ServerSentEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  data: string;
  /** The last `id:` seen, as the spec keeps it across events ('' when none). */
  id: string;
}

export interface SseParser {
  /** Feed decoded text as it arrives, in chunks of any size. */
  push(chunk: string): void;
  /** The last event id seen (for `Last-Event-ID` on reconnect). */
  readonly lastEventId: string;
  /** A `retry:` field, in ms, when the server sent one. */
  readonly retryMs: number | null;
}

export function createSseParser(onEvent: (event: ServerSentEvent) => void): SseParser {
  let buffer = '';
  let data: string[] = [];
  let eventName = '';
  let lastEventId = '';
  let retryMs: number | null = null;
  let started = false;

  function dispatch(): void {
    if (data.length > 0) onEvent({ event: eventName || 'message', data: data.join('\n'), id: lastEventId });
    data = [];
    eventName = '';
  }

  function line(text: string): void {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment: the server's keep-alive
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') eventName = value;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  }

  return {
    push(chunk) {
      buffer += chunk;
      if (!started && buffer.length > 0) {
        started = true;
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      }
      // Lines end in CRLF, LF or CR; a CR at the very end may be the first half of a CRLF.
      for (;;) {
        const match = /\r\n|\n|\r/.exec(buffer);
        if (!match) break;
        if (match[0] === '\r' && match.index === buffer.length - 1) break;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}
