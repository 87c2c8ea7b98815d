/**
 * `momo-checkout link create` (issue 44): a payment link created through the running companion's
 * server API, its URL and a QR code printed in the terminal that decodes back to that URL's
 * modules; the same --key gives the same link; a refusal is the companion's sentence.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import qrcode from 'qrcode-generator';
import { linkCommand, terminalQr } from '../../../src/server/commands/link.js';
import { startHarness, type Harness } from '../harness.js';

const serverSecret = 'link-cli-test-server-secret-0123456789abcdef';
let h: Harness;
before(async () => {
  h = await startHarness({ serverSecret, setupChecksAtStart: false });
});
after(async () => h.close());

describe('momo-checkout link create', () => {
  it('creates a link, prints its URL and a QR code of it, and gives the same link again for the same --key', async () => {
    const env = { MOMO_SERVER_URL: `${h.base}/server`, MOMO_SERVER_SECRET: serverSecret };
    const lines: string[] = [];
    const args = ['create', '--currency', 'XOF', '--description', 'Pagne wax', '--amount', '5000', '--key', `cli-${Date.now()}`];
    assert.equal(await linkCommand(args, env, (line) => lines.push(line)), 0);
    assert.match(lines[0]!, /^Payment link [\w-]{23}: 5000 XOF, single-use, until \d{4}-/);
    const url = lines[1]!;
    assert.equal(url, `${h.base}/l/${/^Payment link ([\w-]{23})/.exec(lines[0]!)![1]}`);
    assert.deepEqual(lines.slice(2), terminalQr(url), 'the QR code of the URL follows');
    const again: string[] = [];
    assert.equal(await linkCommand(args, env, (line) => again.push(line)), 0);
    assert.equal(again[1], url, 'the same --key, the same link');

    const refused: string[] = [];
    assert.equal(await linkCommand(['create', '--currency', 'XOF', '--description', 'x', '--amount', '5000.5'], env, (line) => refused.push(line)), 1);
    assert.match(refused[0]!, /^Link not created: the companion answered HTTP 400 .*This currency has no decimals: use a whole amount\./);
  });

  it("draws every module of the URL's QR code, light ones as blocks, two rows per line", () => {
    const text = 'https://shop.example/momo/l/k3Jq9sV0bT2xYw8ZrA1c4Q';
    const qr = qrcode(0, 'L');
    qr.addData(text, 'Byte');
    qr.make();
    const size = qr.getModuleCount();
    const lines = terminalQr(text);
    assert.equal(lines.length, Math.ceil((size + 4) / 2));
    for (let row = 0; row < size; row++) {
      for (let column = 0; column < size; column++) {
        const cell = lines[Math.floor((row + 2) / 2)]![column + 2]!;
        const top = (row + 2) % 2 === 0;
        const light = top ? cell === '█' || cell === '▀' : cell === '█' || cell === '▄';
        assert.equal(light, !qr.isDark(row, column), `module ${row},${column}`);
      }
    }
  });
});
