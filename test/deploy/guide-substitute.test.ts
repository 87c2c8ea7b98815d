/**
 * The tests' replacement of docs/deploy.md's placeholders (guide.ts `substitute`): every value put
 * in stays as it was put, whatever the placeholders that follow.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { substitute } from './guide.js';

describe("docs/deploy.md's placeholders, replaced", () => {
  it('never reads a value put in as a later placeholder (a free port 40109, then 127.0.0.1:4010 replaced)', () => {
    const site = 'listen 443 ssl http2;\nproxy_pass http://127.0.0.1:4010;\nserver 127.0.0.1:3000;\nserver 127.0.0.1:3001;';
    assert.equal(
      substitute(site, [
        ['listen 443 ssl http2;', 'listen 127.0.0.1:40109 ssl http2;'],
        ['127.0.0.1:4010', '127.0.0.1:41333'],
        ['127.0.0.1:3000', '127.0.0.1:30015'],
        ['127.0.0.1:3001', '127.0.0.1:41999'],
      ]),
      'listen 127.0.0.1:40109 ssl http2;\nproxy_pass http://127.0.0.1:41333;\nserver 127.0.0.1:30015;\nserver 127.0.0.1:41999;',
    );
  });

  it('takes placeholders literally, the longest first, and fails on one the text does not hold', () => {
    assert.equal(substitute('a $x (y) [z].* a', [['$x (y) [z].*', 'Q'], ['a', 'b']]), 'b Q b');
    assert.throws(() => substitute('listen 80;', [['listen 443;', 'x']]), /no longer holds the placeholder "listen 443;"/);
  });
});
