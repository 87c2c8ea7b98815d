/**
 * Webhook verification throughput (§6.3) on a ~300-byte realistic body, and the cost of the raw
 * JSON walk alone (it must cost far less than the HMAC). Run: `npx tsx bench/webhook-verify.ts`.
 * Target: at least 20,000 verifications per second.
 */
import { pathToFileURL } from 'node:url';
import { parseRawJsonObject } from '../src/contract/webhook-signature/raw-json.js';
import { nodeHmacSha512Hex, webCryptoHmacSha512Hex } from '../src/contract/webhook-signature/hmac.js';
import { buildSignedString } from '../src/contract/webhook-signature/signed-string.js';
import { signWebhook } from '../src/contract/webhook-signature/sign.js';
import { verifyWebhook } from '../src/contract/webhook-signature/verify.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const SECRET = 'whsec_bench_3f9a1c0e5b7d4a2f8e6c1b0a9d8e7f6a';
const NOW = 1_750_000_000_000;
const MEASURE_MS = 1_000;

/** A final notification as §6.2 and assumptions.md describe it: about 300 bytes. */
async function realisticBody(): Promise<string> {
  return signWebhook(
    { phoneNumber: '+2290196123456', amount: 25000, orderId: 'order-2025-06-15-000123', status: 'completed' },
    SECRET,
    { now: () => NOW, nonce: 'b6f0c2d94e1a7358c0d1e2f3a4b5c6d7' },
  );
}

/** Runs a synchronous `work` in batches until MEASURE_MS has passed; returns operations per second. */
function opsPerSecondSync(work: () => unknown, batch: number): number {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) for (let i = 0; i < batch; i++) work();
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_MS) {
    for (let i = 0; i < batch; i++) work();
    operations += batch;
    elapsed = performance.now() - start;
  }
  return (operations / elapsed) * 1000;
}

/** Runs an async `work`, one at a time, until MEASURE_MS has passed; returns operations per second. */
async function opsPerSecond(work: () => Promise<unknown>, batch: number): Promise<number> {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) for (let i = 0; i < batch; i++) await work();
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_MS) {
    for (let i = 0; i < batch; i++) await work();
    operations += batch;
    elapsed = performance.now() - start;
  }
  return (operations / elapsed) * 1000;
}

/** Same, with `inFlight` verifications awaited together (a server under load). */
async function opsPerSecondConcurrent(work: () => Promise<unknown>, inFlight: number): Promise<number> {
  const round = () => Promise.all(Array.from({ length: inFlight }, work));
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) await round();
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_MS) {
    await round();
    operations += inFlight;
    elapsed = performance.now() - start;
  }
  return (operations / elapsed) * 1000;
}

export async function benchWebhookVerify(): Promise<Figure[]> {
  const body = await realisticBody();
  const options = { secrets: [SECRET], now: () => NOW };
  const verify = () => verifyWebhook(body, options);
  await verify(); // fails loudly here if the body does not verify

  const sequential = await opsPerSecond(verify, 100);
  const concurrent = await opsPerSecondConcurrent(verify, 64);
  const walk = opsPerSecondSync(() => parseRawJsonObject(body), 1000);
  const walkAndString = opsPerSecondSync(() => buildSignedString(parseRawJsonObject(body)), 1000);
  const signedString = buildSignedString(parseRawJsonObject(body));
  const nodeHmac = nodeHmacSha512Hex;
  const hmacNode = nodeHmac ? opsPerSecondSync(() => nodeHmac(SECRET, signedString), 1000) : Number.NaN;
  const hmacWebCrypto = await opsPerSecond(() => webCryptoHmacSha512Hex(SECRET, signedString), 100);
  return [
    { name: `verifyWebhook, ${body.length}-byte body, one at a time`, value: Math.round(sequential), unit: 'verifications/s' },
    { name: `verifyWebhook, ${body.length}-byte body, 64 in flight`, value: Math.round(concurrent), unit: 'verifications/s' },
    { name: 'verifyWebhook, one at a time, per call', value: 1e6 / sequential, unit: 'µs' },
    { name: 'parseRawJsonObject alone, per call', value: 1e6 / walk, unit: 'µs' },
    { name: 'parseRawJsonObject + buildSignedString, per call', value: 1e6 / walkAndString, unit: 'µs' },
    { name: 'HMAC-SHA512 alone, node:crypto (used on Node), per call', value: 1e6 / hmacNode, unit: 'µs' },
    { name: 'HMAC-SHA512 alone, Web Crypto subtle.sign, per call', value: 1e6 / hmacWebCrypto, unit: 'µs' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await benchWebhookVerify()) {
    const value = Number.isInteger(figure.value) ? String(figure.value) : figure.value.toFixed(2);
    console.log(`${figure.name}: ${value} ${figure.unit}`);
  }
}
