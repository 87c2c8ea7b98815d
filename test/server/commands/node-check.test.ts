/** The Node floor: what doctor and serve say, and that package.json's engines says the same floor. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { minimumNodeMajor, nodeCheck } from '../../../src/server/commands/node-check.js';

describe('node check', () => {
  it('refuses a Node below the floor and says what to install', () => {
    const check = nodeCheck('20.20.2');
    assert.equal(check.status, 'error');
    assert.match(check.message, /Node 20\.20\.2 is too old: momo-checkout needs Node 22 or newer\. Install Node 24/);
    assert.equal(nodeCheck('v18.19.0').status, 'error');
    assert.equal(nodeCheck('not a version').status, 'error');
  });

  it('accepts the floor and newer', () => {
    for (const version of ['22.0.0', '22.23.3', '24.21.0', '26.1.0']) {
      const check = nodeCheck(version);
      assert.equal(check.status, 'ok', version);
      assert.equal(check.message, `Node ${version} (needs 22 or newer)`);
    }
  });

  it('is the floor package.json declares, and the Node running these tests passes it', () => {
    const engines = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).engines as { node: string };
    assert.equal(engines.node, `>=${minimumNodeMajor}`);
    assert.equal(nodeCheck().status, 'ok', `this suite runs on Node ${process.versions.node}: run it on Node 22 or 24 (README, "Node for development")`);
  });
});
