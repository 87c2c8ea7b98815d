/** docs/sandbox.md lists every test number as the banners print it: by what the payer sees, not by workflow name. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { testNumberLines } from '../../src/sandbox/catalogue/test-number-table.js';
import { testNumbers } from '../../src/sandbox/catalogue/test-numbers.js';

describe('the test numbers table', () => {
  it('has one line per number, in the payer\'s words, and docs/sandbox.md holds it as printed', async () => {
    const lines = testNumberLines('');
    assert.equal(lines.length, testNumbers.length);
    for (const line of lines) assert.doesNotMatch(line, /provider_auth|pre_authorized|redirect_url/);
    assert.match(lines[0]!, /^\+2290196000001 +BJ +mtn +push on the phone +paid$/);
    const doc = await readFile(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    assert.ok(doc.includes(`\`\`\`\n${lines.join('\n')}\n\`\`\``), 'docs/sandbox.md: paste the table again (testNumberLines(\'\'))');
  });
});
