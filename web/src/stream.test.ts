// The event stream's parser (stream.ts): events as EventSource hands them
// over, from chunks cut anywhere.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventParser, type StreamEvent} from './stream';

// feed pushes text in chunks of n characters and collects the events.
function feed(p: EventParser, text: string, n: number): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (let i = 0; i < text.length; i += n) out.push(...p.push(text.slice(i, i + n)));
  return out;
}

const stream = ': heartbeat\n\n' +
  'event: move\nid: 7\ndata: {"seat":1}\n\n' +
  'event: crossed\r\ndata: {"a":1,\r\ndata:  "b":2}\r\n\r\n' +
  'data: plain\rid: 8\r\r' +
  'retry: 1500\n\n';

test('named events, ids, multi-line data and every line ending, cut anywhere', () => {
  for (const n of [1, 2, 3, 5, 7, 1000]) {
    const p = new EventParser();
    const got = feed(p, stream, n);
    assert.deepEqual(got, [
      {type: 'move', data: '{"seat":1}', lastEventId: '7'},
      {type: 'crossed', data: '{"a":1,\n "b":2}', lastEventId: '7'},
      {type: 'message', data: 'plain', lastEventId: '8'},
    ], `chunks of ${n}`);
    assert.equal(p.lastEventId, '8');
    assert.equal(p.retryMs, 1500);
  }
});

test('an event is handed over only at its blank line', () => {
  const p = new EventParser();
  assert.deepEqual(p.push('event: move\ndata: x\n'), []);
  assert.deepEqual(p.push('\n'), [{type: 'move', data: 'x', lastEventId: ''}]);
});

test('an id without data moves the resume point but hands nothing over', () => {
  const p = new EventParser('3');
  assert.deepEqual(p.push('id: 4\n\n'), []);
  assert.equal(p.lastEventId, '4');
  assert.deepEqual(p.push('data: y\n\n'), [{type: 'message', data: 'y', lastEventId: '4'}]);
});

test('a field without a colon has an empty value; an id with a NUL and a bad retry are ignored', () => {
  const p = new EventParser('1');
  assert.deepEqual(p.push('data\nid: 2\0\nretry: soon\n\n'), [{type: 'message', data: '', lastEventId: '1'}]);
  assert.equal(p.retryMs, null);
});
