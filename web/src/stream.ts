// A game's event stream read with fetch, so that the credential travels in
// the Authorization header and never in the URL (a browser's EventSource
// cannot send headers: it would need ?access_token=, and URLs end up in
// logs and histories). It behaves as EventSource does where the app relies
// on it: readyState CONNECTING/OPEN/CLOSED, onopen, onerror, named events
// with lastEventId, reconnecting with Last-Event-ID after the connection
// drops (waiting as the server's retry: field says), and closing for good
// on 204 No Content (nothing more to send) or a refusal. It asks for the
// events in the app's language (Accept-Language).
import {lang} from './i18n';

export const CONNECTING = 0;
export const OPEN = 1;
export const CLOSED = 2;

// StreamEvent is one event as a listener hears it (as EventSource's
// MessageEvent: type, data, lastEventId).
export type StreamEvent = {type: string; data: string; lastEventId: string};
type Listener = (e: StreamEvent) => void;

// EventParser reads the text/event-stream format a chunk at a time (a chunk
// may end anywhere, even between \r and \n) and hands over each event as
// EventSource would: named (or "message"), its data lines joined, the last
// id seen; an event without data is not dispatched, a comment (the
// heartbeat) is skipped, and retry: sets the wait before reconnecting.
export class EventParser {
  lastEventId: string;
  retryMs: number | null = null;
  private buf = '';
  private name = '';
  private data: string[] = [];
  private id: string | null = null;

  constructor(lastEventId = '') {
    this.lastEventId = lastEventId;
  }

  // push reads a chunk and returns the events it completes.
  push(chunk: string): StreamEvent[] {
    const out: StreamEvent[] = [];
    this.buf += chunk;
    let nl: number;
    while ((nl = this.buf.search(/\r\n|\r|\n/)) >= 0) {
      // A \r at the very end may be the first half of \r\n: wait for more.
      if (this.buf[nl] === '\r' && nl === this.buf.length - 1) break;
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + (this.buf.startsWith('\r\n', nl) ? 2 : 1));
      const e = this.line(line);
      if (e) out.push(e);
    }
    return out;
  }

  private line(line: string): StreamEvent | null {
    if (line === '') {
      if (this.id !== null) this.lastEventId = this.id;
      const data = this.data;
      const type = this.name || 'message';
      this.name = '';
      this.data = [];
      this.id = null;
      return data.length ? {type, data: data.join('\n'), lastEventId: this.lastEventId} : null;
    }
    if (line.startsWith(':')) return null; // a comment: the heartbeat
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let val = colon < 0 ? '' : line.slice(colon + 1);
    if (val.startsWith(' ')) val = val.slice(1);
    if (field === 'event') this.name = val;
    else if (field === 'data') this.data.push(val);
    else if (field === 'id' && !val.includes('\0')) this.id = val;
    else if (field === 'retry' && /^\d+$/.test(val)) this.retryMs = Number(val);
    return null;
  }
}

export class GameStream {
  url: string;
  cred: string;
  lastEventId: string;
  readyState: number = CONNECTING;
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  private listeners = new Map<string, Listener[]>();
  private retryMs = 3000;
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(url: string, cred: string, lastEventId?: string) {
    this.url = url;
    this.cred = cred;
    this.lastEventId = lastEventId || '';
    this.open();
  }

  addEventListener(name: string, fn: Listener): void {
    const list = this.listeners.get(name) || [];
    list.push(fn);
    this.listeners.set(name, list);
  }

  close(): void {
    this.readyState = CLOSED;
    clearTimeout(this.timer);
    if (this.abort) this.abort.abort();
  }

  async open(): Promise<void> {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    const ctl = new AbortController();
    this.abort = ctl;
    const headers: Record<string, string> = {Accept: 'text/event-stream', 'Accept-Language': lang()};
    if (this.cred) headers.Authorization = `Bearer ${this.cred}`;
    if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
    let res: Response;
    try {
      res = await fetch(this.url, {headers, cache: 'no-store', signal: ctl.signal});
    } catch {
      this.dropped();
      return;
    }
    const type = res.headers.get('Content-Type') || '';
    if (res.status !== 200 || !type.startsWith('text/event-stream') || !res.body) {
      // 204 (the game ended and everything was sent) or a refusal: as
      // EventSource, close for good and say so.
      this.readyState = CLOSED;
      if (this.onerror) this.onerror(new Event('error'));
      return;
    }
    this.readyState = OPEN;
    if (this.onopen) this.onopen(new Event('open'));
    try {
      await this.read(res.body);
    } catch {
      // the connection dropped or was closed
    }
    this.dropped();
  }

  private dropped(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    if (this.onerror) this.onerror(new Event('error'));
    if (this.readyState === CLOSED) return;
    this.timer = setTimeout(() => this.open(), this.retryMs);
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const text = new TextDecoder();
    const parser = new EventParser(this.lastEventId);
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      for (const e of parser.push(text.decode(value, {stream: true}))) {
        this.lastEventId = parser.lastEventId;
        if (this.readyState === CLOSED) return;
        for (const fn of this.listeners.get(e.type) || []) fn(e);
      }
      this.lastEventId = parser.lastEventId;
      if (parser.retryMs !== null) this.retryMs = parser.retryMs;
      if (this.readyState === CLOSED) return;
    }
  }
}
