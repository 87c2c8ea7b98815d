import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AlreadyExistsError,
  AmountOutOfRangeError,
  createServiceClient,
  ServiceNetworkError,
  OtpRequiredError,
  RedirectUrlsRequiredError,
  TimeoutError,
  UnauthorizedError,
  UnexpectedBodyError,
  UpstreamStatusError,
  ValidationError,
} from '../../../src/server/service-client/index.js';
import { json, startFixture } from './fixture-server.js';

type Fixture = Awaited<ReturnType<typeof startFixture>>;
let script: Parameters<typeof startFixture>[0] = (_req, res) => json(res, 500, {});
let fixture: Fixture;

before(async () => {
  fixture = await startFixture((req, res) => script(req, res));
});
after(async () => fixture.close());

const payIn = { orderId: 'order-1', amount: '0.07', phoneNumber: '+243810000001', currencyCode: 'USD' };
const client = (timeoutMs = 2000) =>
  createServiceClient({ baseUrl: fixture.url, apiKey: 'sk_test_fixture', timeoutMs, retries: { attempts: 2, baseDelayMs: 1 } });

describe('service client against scripted answers', () => {
  it('sends the amount with exactly the merchant digits and Bearer auth', async () => {
    script = (_req, res) => json(res, 200, { success: true, data: { orderId: 'order-1', transactionId: 't-1', status: 'pending', message: 'ok' } });
    const answer = await client().payIn(payIn);
    assert.equal(answer.status, 'pending');
    const request = fixture.seen.at(-1)!;
    assert.equal(request.body, '{"orderId":"order-1","amount":0.07,"phoneNumber":"+243810000001","currencyCode":"USD"}');
    assert.equal(request.headers.authorization, 'Bearer sk_test_fixture');
    assert.equal(request.headers['x-api-key'], undefined);
  });

  it('encodes + as %2B in query values', async () => {
    script = (_req, res) => json(res, 200, { success: true, data: { operators: [] } });
    await client().corridors('+22997000001');
    assert.equal(fixture.seen.at(-1)!.url, '/v1/corridors/available?phone=%2B22997000001&transactionType=payin');
  });

  const mappings: Array<[string, number, unknown, new (...args: never[]) => Error]> = [
    ['400 VALIDATION_ERROR', 400, { success: false, code: 'VALIDATION_ERROR', message: 'bad' }, ValidationError],
    ['400 AMOUNT_OUT_OF_RANGE', 400, { success: false, code: 'AMOUNT_OUT_OF_RANGE', message: 'range' }, AmountOutOfRangeError],
    ['401', 401, { success: false, code: 'UNAUTHORIZED', message: 'no' }, UnauthorizedError],
    ['409 without a code', 409, { success: false, message: 'exists' }, AlreadyExistsError],
    ['422 OTP_REQUIRED', 422, { success: false, code: 'OTP_REQUIRED', status: 'OTP_REQUIRED', data: { workflow: 'pre_authorized' } }, OtpRequiredError],
    ['422 REDIRECT_URLS_REQUIRED', 422, { success: false, code: 'REDIRECT_URLS_REQUIRED', status: 'REDIRECT_URLS_REQUIRED', data: { workflow: 'redirect_url' } }, RedirectUrlsRequiredError],
  ];
  for (const [name, status, body, type] of mappings) {
    it(`maps ${name} to ${type.name}, with a known outcome`, async () => {
      script = (_req, res) => json(res, status, body);
      const error = await client().payIn(payIn).catch((caught: unknown) => caught);
      assert.ok(error instanceof type, `got ${String(error)}`);
      assert.equal((error as UpstreamStatusError).outcomeUnknown, false);
      assert.equal((error as UpstreamStatusError).httpStatus, status);
    });
  }

  it('carries the workflow of a 422', async () => {
    script = (_req, res) => json(res, 422, { success: false, code: 'OTP_REQUIRED', status: 'OTP_REQUIRED', data: { workflow: 'pre_authorized' } });
    const error = await client().payIn(payIn).catch((caught: unknown) => caught);
    assert.ok(error instanceof OtpRequiredError);
    assert.equal(error.workflow, 'pre_authorized');
  });

  it('treats a proxy HTML 502 on a pay-in as an unknown outcome, and does not retry it', async () => {
    const before = fixture.seen.length;
    script = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    };
    const error = await client().payIn(payIn).catch((caught: unknown) => caught);
    assert.ok(error instanceof UpstreamStatusError);
    assert.equal(error.outcomeUnknown, true);
    assert.equal(fixture.seen.length - before, 1, 'a pay-in is never retried by the client');
  });

  it('names the missing field when a 200 lacks transactionId, and calls the outcome unknown', async () => {
    script = (_req, res) => json(res, 200, { success: true, data: { orderId: 'order-1', status: 'pending' } });
    const error = await client().payIn(payIn).catch((caught: unknown) => caught);
    assert.ok(error instanceof UnexpectedBodyError);
    assert.match(error.message, /data\.transactionId is required/);
    assert.equal(error.outcomeUnknown, true);
  });

  it('refuses a 2xx body that is not JSON', async () => {
    script = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    };
    const error = await client().countries().catch((caught: unknown) => caught);
    assert.ok(error instanceof UnexpectedBodyError);
  });

  it('reports a connection cut mid-answer on a pay-in as a network error with an unknown outcome', async () => {
    script = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"success":true,');
      setTimeout(() => res.socket?.destroy(), 5);
    };
    const error = await client().payIn(payIn).catch((caught: unknown) => caught);
    assert.ok(error instanceof ServiceNetworkError, `got ${String(error)}`);
    assert.equal(error.outcomeUnknown, true);
  });

  it('times out a hanging pay-in with an unknown outcome', async () => {
    script = () => {
      /* never answers */
    };
    const error = await client(100).payIn(payIn).catch((caught: unknown) => caught);
    assert.ok(error instanceof TimeoutError, `got ${String(error)}`);
    assert.equal(error.outcomeUnknown, true);
  });

  it('retries a GET after a 500 and returns the later answer', async () => {
    let calls = 0;
    script = (_req, res) => {
      calls += 1;
      if (calls === 1) json(res, 500, { success: false, message: 'boom' });
      else json(res, 200, { success: true, data: { countries: [{ code: 'BJ', name: 'Benin' }] } });
    };
    const answer = await client().countries();
    assert.equal(answer.countries[0]?.code, 'BJ');
    assert.equal(calls, 2);
  });

  it('does not retry a GET refused with a 4xx', async () => {
    let calls = 0;
    script = (_req, res) => {
      calls += 1;
      json(res, 401, { success: false, code: 'UNAUTHORIZED' });
    };
    await assert.rejects(client().operators('BJ'), UnauthorizedError);
    assert.equal(calls, 1);
  });

  it('gives up on a GET after its retries, with the last error', async () => {
    let calls = 0;
    script = (_req, res) => {
      calls += 1;
      json(res, 503, { success: false });
    };
    await assert.rejects(client().countries(), UpstreamStatusError);
    assert.equal(calls, 3);
  });
});
