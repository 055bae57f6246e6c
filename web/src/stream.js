// A game's event stream read with fetch, so that the credential travels in
// the Authorization header and never in the URL (a browser's EventSource
// cannot send headers: it would need ?access_token=, and URLs end up in
// logs and histories). It behaves as EventSource does where the app relies
// on it: readyState CONNECTING/OPEN/CLOSED, onopen, onerror, named events
// with lastEventId, reconnecting with Last-Event-ID after the connection
// drops (waiting as the server's retry: field says), and closing for good
// on 204 No Content (nothing more to send) or a refusal. It asks for the
// events in the app's language (Accept-Language).
import {lang} from './i18n.js';

export const CONNECTING = 0;
export const OPEN = 1;
export const CLOSED = 2;

export class GameStream {
  constructor(url, cred, lastEventId) {
    this.url = url;
    this.cred = cred;
    this.lastEventId = lastEventId || '';
    this.readyState = CONNECTING;
    this.onopen = null;
    this.onerror = null;
    this.listeners = new Map();
    this.retryMs = 3000;
    this.abort = null;
    this.timer = null;
    this.open();
  }

  addEventListener(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push(fn);
  }

  close() {
    this.readyState = CLOSED;
    clearTimeout(this.timer);
    if (this.abort) this.abort.abort();
  }

  async open() {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    const ctl = new AbortController();
    this.abort = ctl;
    const headers = {Accept: 'text/event-stream', 'Accept-Language': lang()};
    if (this.cred) headers.Authorization = `Bearer ${this.cred}`;
    if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
    let res;
    try {
      res = await fetch(this.url, {headers, cache: 'no-store', signal: ctl.signal});
    } catch {
      this.dropped();
      return;
    }
    const type = res.headers.get('Content-Type') || '';
    if (res.status !== 200 || !type.startsWith('text/event-stream')) {
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

  dropped() {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    if (this.onerror) this.onerror(new Event('error'));
    if (this.readyState === CLOSED) return;
    this.timer = setTimeout(() => this.open(), this.retryMs);
  }

  async read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let event = {name: '', data: [], id: null};
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buf += value;
      let nl;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          this.dispatch(event);
          event = {name: '', data: [], id: null};
          continue;
        }
        if (line.startsWith(':')) continue; // a comment: the heartbeat
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'event') event.name = val;
        else if (field === 'data') event.data.push(val);
        else if (field === 'id' && !val.includes('\0')) event.id = val;
        else if (field === 'retry' && /^\d+$/.test(val)) this.retryMs = Number(val);
      }
      if (this.readyState === CLOSED) return;
    }
  }

  dispatch(ev) {
    if (ev.id !== null) this.lastEventId = ev.id;
    if (!ev.data.length || this.readyState === CLOSED) return;
    const e = {type: ev.name || 'message', data: ev.data.join('\n'), lastEventId: this.lastEventId};
    for (const fn of this.listeners.get(e.type) || []) fn(e);
  }
}
