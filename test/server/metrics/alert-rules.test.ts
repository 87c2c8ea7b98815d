/**
 * The four alert rules of docs/metrics.md, taken from the page verbatim, evaluated by Prometheus's
 * own `promtool test rules` (Debian's prometheus package) over series built from real scrapes of
 * companions put in each situation through the sandbox. The companion and the sandbox share a clock
 * the test moves a minute forward before each scrape: the minutes are simulated, every value is what
 * `/metrics` answered (docs/metrics.md, "How they are tested").
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createMemoryStore } from '../../../src/server/index.js';
import { newOrderId, startHarness, type Harness } from '../harness.js';
import { eventually, metricsToken, scrape } from './scrape.js';
import type { Scrape } from '../../support/prometheus-text.js';

const push = { approve: '+2290196000001', decline: '+2290196000002', noAnswer: '+2290196000003' };
const minute = 60_000;

/** The rules block of docs/metrics.md, byte for byte. */
function rulesFromDocs(): string {
  const page = readFileSync(new URL('../../../docs/metrics.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('## Alert rules'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'docs/metrics.md has a yaml block under "## Alert rules"');
  return block[1]!;
}

function promtool(): string {
  const found = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error("promtool not found: install Debian's prometheus package (apt-get install prometheus); scripts/ensure-test-tools.sh does it as root.");
  }
  return 'promtool';
}

/** A clock shared by a companion and its sandbox, moved by the test. */
function movableClock(start = 0) {
  const clock = { shift: start, now: () => Date.now() + clock.shift };
  return clock;
}

type Clock = ReturnType<typeof movableClock>;

async function payment(h: Harness, phoneNumber: string, settled?: string): Promise<string> {
  const orderId = newOrderId();
  const token = await h.checkout(orderId);
  assert.equal((await h.json('/checkout/pay', { token, body: { phoneNumber, useWallet: false } })).status, 200);
  if (settled) await h.waitFor(orderId, (view) => view.state === settled);
  return orderId;
}

/** One scrape per simulated minute, 0 to `minutes`; `during` runs before the scrape of its minute. */
async function scrapesPerMinute(h: Harness, clock: Clock, minutes: number, during?: (at: number) => Promise<void>): Promise<Scrape[]> {
  const start = clock.shift;
  const scrapes: Scrape[] = [];
  for (let at = 0; at <= minutes; at++) {
    clock.shift = start + at * minute;
    await during?.(at);
    scrapes.push(await scrape(h.base));
  }
  return scrapes;
}

/** promtool's input series: every sample of `names` across the scrapes, `_` where a scrape had none. */
function inputSeries(scrapes: Scrape[], names: readonly string[]): Array<{ series: string; values: string }> {
  const series = new Map<string, string[]>();
  scrapes.forEach((scrape, index) => {
    for (const sample of scrape.samples) {
      if (!names.includes(sample.name)) continue;
      const labels = Object.entries({ ...sample.labels, instance: 'companion-a' }).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
      const key = `${sample.name}{${labels.join(',')}}`;
      if (!series.has(key)) series.set(key, Array<string>(scrapes.length).fill('_'));
      series.get(key)![index] = String(sample.value);
    }
  });
  return [...series].map(([key, values]) => ({ series: key, values: values.join(' ') }));
}

interface Rule {
  alert: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

describe('the alert rules of docs/metrics.md, against scrapes of companions in each situation', () => {
  const rulesText = rulesFromDocs();
  const rules = new Map<string, Rule>((parse(rulesText) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((group) => group.rules).map((rule) => [rule.alert, rule]));
  const dir = mkdtempSync(join(tmpdir(), 'momo-alerts-'));
  const tests: unknown[] = [];
  const firing = (alertname: string, eval_time: string, labels: Record<string, string> = {}) => ({
    eval_time,
    alertname,
    exp_alerts: [{ exp_labels: { ...rules.get(alertname)!.labels, ...labels }, exp_annotations: rules.get(alertname)!.annotations ?? {} }],
  });
  const silent = (alertname: string, eval_time: string) => ({ eval_time, alertname, exp_alerts: [] });
  let tool: string;
  before(() => {
    tool = promtool();
    writeFileSync(join(dir, 'rules.yml'), rulesText);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the four rules', () => {
    assert.deepEqual([...rules.keys()].sort(), ['MomoMerchantEndpointRefusing', 'MomoNoNotificationWhilePending', 'MomoOperatorBelowUsualRate', 'MomoPaymentsStuck']);
  });

  it('a payment waiting with no notification: no news for 10 minutes, then stuck at 15', async () => {
    const clock = movableClock();
    const h = await startHarness({ metricsToken, now: clock.now, store: createMemoryStore({ now: clock.now }) }, { now: clock.now });
    try {
      await payment(h, push.approve, 'completed');
      await payment(h, push.noAnswer, 'pending');
      await eventually(async () => assert.equal((await scrape(h.base)).value('momo_notifications_received_total', { result: 'applied' }), 1));
      const scrapes = await scrapesPerMinute(h, clock, 17);
      assert.equal(scrapes[17]!.value('momo_payments_stuck', { kind: 'payment' }), 1, 'the console lists it as stuck');
      tests.push({
        interval: '1m',
        input_series: inputSeries(scrapes, ['momo_payments_open_oldest_seconds', 'momo_notifications_received_total', 'momo_payments_stuck']),
        alert_rule_test: [
          silent('MomoNoNotificationWhilePending', '9m'),
          firing('MomoNoNotificationWhilePending', '12m'),
          silent('MomoPaymentsStuck', '13m'),
          firing('MomoPaymentsStuck', '16m', { kind: 'payment' }),
          silent('MomoMerchantEndpointRefusing', '16m'),
          silent('MomoOperatorBelowUsualRate', '16m'),
        ],
      });
    } finally {
      await h.close();
    }
  });

  it('the shop endpoint answering 500 to every notification for 15 minutes', async () => {
    let attempts = 0;
    const endpoint = createServer((_req, res) => {
      attempts++;
      res.writeHead(500).end('down');
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const clock = movableClock();
    const h = await startHarness(
      {
        metricsToken,
        now: clock.now,
        merchantWebhookUrl: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/momo-events`,
        merchantWebhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
      },
      { now: clock.now },
    );
    try {
      await payment(h, push.approve, 'completed');
      await eventually(() => assert.ok(attempts > 0, 'the endpoint was tried'));
      const scrapes = await scrapesPerMinute(h, clock, 17);
      assert.ok(scrapes[17]!.value('momo_merchant_deliveries_total', { sink: 'webhook', result: 'refused' }) >= 1);
      tests.push({
        interval: '1m',
        input_series: inputSeries(scrapes, ['momo_merchant_delivery_backlog_seconds', 'momo_merchant_deliveries_total']),
        alert_rule_test: [silent('MomoMerchantEndpointRefusing', '14m'), firing('MomoMerchantEndpointRefusing', '16m')],
      });
    } finally {
      await h.close();
      endpoint.closeAllConnections();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });

  it('an operator whose payments stop completing: 20 completed two hours ago, then 5 declined', async () => {
    const clock = movableClock(-2 * 60 * minute);
    const h = await startHarness({ metricsToken, now: clock.now, store: createMemoryStore({ now: clock.now }) }, { now: clock.now });
    try {
      for (let index = 0; index < 20; index++) await payment(h, push.approve, 'completed');
      clock.shift = 0;
      const scrapes = await scrapesPerMinute(h, clock, 12, async (at) => {
        if (at === 3) for (let index = 0; index < 5; index++) await payment(h, push.decline, 'failed');
      });
      const operator = scrapes[12]!.find('momo_operator_completion_ratio', { window: '1h' })[0]!.labels.operator!;
      assert.equal(scrapes[12]!.value('momo_operator_completion_ratio', { operator, window: 'usual' }), 1);
      assert.equal(scrapes[12]!.value('momo_operator_completion_ratio', { operator, window: '1h' }), 0);
      tests.push({
        interval: '1m',
        input_series: inputSeries(scrapes, ['momo_operator_completion_ratio', 'momo_operator_finished_payments']),
        alert_rule_test: [silent('MomoOperatorBelowUsualRate', '2m'), silent('MomoOperatorBelowUsualRate', '7m'), firing('MomoOperatorBelowUsualRate', '10m', { operator })],
      });
    } finally {
      await h.close();
    }
  });

  it('promtool test rules: each rule fires in its situation and not before', () => {
    assert.equal(tests.length, 3, 'the three situations above were recorded');
    writeFileSync(join(dir, 'tests.yml'), JSON.stringify({ rule_files: ['rules.yml'], evaluation_interval: '1m', tests }, null, 2));
    const run = spawnSync(tool, ['test', 'rules', 'tests.yml'], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}\n${readFileSync(join(dir, 'tests.yml'), 'utf8').slice(0, 4000)}`);
    assert.match(run.stdout, /SUCCESS/);
  });
});
