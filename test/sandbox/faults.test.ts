import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSandbox, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { request } from './helpers.js';

const payInBody = (orderId: string) => JSON.stringify({ orderId, amount: 5000, phoneNumber: '+2290196000003', currencyCode: 'XOF' });

describe('injected faults over real HTTP (assumptions.md: unknown outcomes)', () => {
  let sandbox: RunningSandbox;
  /** Called when the sandbox takes an armed hang: the request has reached it. */
  let hangTaken = () => {};
  before(async () => {
    sandbox = await startSandbox({ pushDelayMs: 20, log: (line) => line.includes('injected fault hang') && hangTaken() });
  });
  after(async () => {
    await sandbox.close();
  });

  const payIn = (orderId: string, signal?: AbortSignal) =>
    fetch(`${sandbox.url}/v1/pay-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: payInBody(orderId),
      ...(signal ? { signal } : {}),
    });

  it('status-500 answers an HTML 500, creates nothing, and hits only `times` requests', async () => {
    sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-in', times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await payIn('f-500');
      assert.equal(response.status, 500);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await response.text(), /<html>/);
    }
    assert.equal(sandbox.control.transaction('f-500'), undefined);
    assert.equal((await payIn('f-500')).status, 200);
  });

  it('a fault armed for another path leaves this one alone', async () => {
    sandbox.control.injectFault({ kind: 'status-500', path: '/v1/pay-out' });
    assert.equal((await payIn('f-other')).status, 200);
    const payOut = await fetch(`${sandbox.url}/v1/pay-out`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: payInBody('f-other-out'),
    });
    assert.equal(payOut.status, 500);
  });

  it('reset cuts the connection and creates nothing', async () => {
    sandbox.control.injectFault({ kind: 'reset', path: '/v1/pay-in' });
    await assert.rejects(payIn('f-reset'), TypeError);
    assert.equal(sandbox.control.transaction('f-reset'), undefined);
    assert.equal((await payIn('f-reset')).status, 200);
  });

  it('lost-answer creates the pay-in but cuts the connection; re-posting the same orderId answers 409', async () => {
    sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in' });
    await assert.rejects(payIn('f-lost'), TypeError);
    assert.equal(sandbox.control.transaction('f-lost')?.status, 'pending');
    assert.equal((await payIn('f-lost')).status, 409);
  });

  it('hang never answers: the caller gives up on its own timeout, nothing is created', async () => {
    sandbox.control.injectFault({ kind: 'hang' });
    const taken = new Promise<void>((resolve) => (hangTaken = resolve));
    const caller = new AbortController();
    const answer = payIn('f-hang', caller.signal);
    // The caller's 100 ms run from when the sandbox holds the request: files run side by side on a
    // loaded machine, where the request can take longer than that to arrive, and a timeout that
    // fired first would leave the hang armed for the next test's /v1/operators (which then never ends).
    await taken;
    const started = Date.now();
    setTimeout(() => caller.abort(new DOMException('the caller gave up', 'TimeoutError')), 100);
    await assert.rejects(answer, (error: Error) => error.name === 'TimeoutError' || error.name === 'AbortError');
    assert.ok(Date.now() - started < 2000);
    assert.equal(sandbox.control.transaction('f-hang'), undefined);
  });

  it('the control surface arms faults over HTTP and refuses unknown kinds', async () => {
    const arm = (body: object) =>
      fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    assert.equal((await arm({ kind: 'meteor' })).status, 400);
    assert.equal((await arm({ kind: 'status-500', path: '/v1/operators' })).status, 200);
    const operators = await fetch(`${sandbox.url}/v1/operators`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
    assert.equal(operators.status, 500);
  });

  it('close() returns even with a request left hanging', async () => {
    const other = await startSandbox({ log: () => {} });
    other.control.injectFault({ kind: 'hang' });
    const pending = fetch(`${other.url}/v1/operators`, { headers: { authorization: `Bearer ${other.apiKey}` } }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await other.close();
    const outcome = await pending;
    assert.ok(outcome instanceof Error || outcome.status === 503);
  });
});

describe('faults through sandbox.fetch (no server)', () => {
  it('reset and lost-answer reject like a network error; lost-answer still creates the pay-in', async () => {
    const sandbox = createSandbox({ log: () => {}, pushDelayMs: 10_000 });
    sandbox.control.injectFault({ kind: 'reset' });
    await assert.rejects(sandbox.fetch(request(sandbox.apiKey, '/v1/pay-in', { body: payInBody('d-reset') })), /connection was reset/);
    assert.equal(sandbox.control.transaction('d-reset'), undefined);
    sandbox.control.injectFault({ kind: 'lost-answer', path: '/v1/pay-in' });
    await assert.rejects(sandbox.fetch(request(sandbox.apiKey, '/v1/pay-in', { body: payInBody('d-lost') })), TypeError);
    assert.equal(sandbox.control.transaction('d-lost')?.status, 'pending');
    sandbox.control.reset();
  });

  it('hang rejects when the request signal aborts', async () => {
    const sandbox = createSandbox({ log: () => {} });
    sandbox.control.injectFault({ kind: 'hang' });
    const controller = new AbortController();
    const pending = sandbox.fetch(new Request('http://sandbox.test/v1/operators', { headers: { authorization: `Bearer ${sandbox.apiKey}` }, signal: controller.signal }));
    controller.abort();
    await assert.rejects(pending);
  });
});
