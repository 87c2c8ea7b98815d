/**
 * The console's browser code in Chromium (src/console/): its pictures as an operator reads them,
 * rendered by Lit into the page, and the console's routes and language. The server's side of the
 * console is test/server/console/; the whole console against the sandbox is test/e2e/console.test.ts.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { render } from 'lit';
import type { ConsoleHour, ConsoleOperatorRate } from '../../../src/contract/console.js';
import { consoleEn } from '../../../src/console/console-text-en.js';
import { consoleFr } from '../../../src/console/console-text-fr.js';
import { hourlyChart } from '../../../src/console/hourly-chart.js';
import { operatorRatesTable } from '../../../src/console/operator-rates.js';
import { routeOf } from '../../../src/console/momo-console.js';

async function shown(template: ReturnType<typeof hourlyChart>): Promise<HTMLElement> {
  const host = await fixture<HTMLElement>(html`<div></div>`);
  render(template, host);
  return host;
}

const hour = (index: number, completed: number, failed: number, open: number): ConsoleHour => ({
  start: new Date(Date.UTC(2026, 2, 4, index)).toISOString(),
  completed,
  failed,
  open,
});

describe('the payments-per-hour picture', () => {
  const hours = Array.from({ length: 24 }, (_, index) => hour(index, index === 5 ? 8 : 1, index === 5 ? 2 : 0, 0));

  it('says what it shows in a sentence, and gives each hour its numbers', async () => {
    const host = await shown(hourlyChart(hours, consoleEn));
    const picture = host.querySelector('svg[role="img"]')!;
    expect(picture.getAttribute('aria-labelledby')).to.equal('per-hour per-hour-summary');
    expect(host.querySelector('#per-hour-summary')!.textContent).to.equal('Last 24 hours: 31 completed, 2 failed, 0 still open.');
    const titles = [...host.querySelectorAll('svg g title')].map((title) => title.textContent!);
    expect(titles).to.have.length(24);
    expect(titles[5]).to.match(/: 8 Completed, 2 Failed, 0 Still open$/);
    await expect(host).to.be.accessible();
  });

  it('draws the busiest hour full height, and an hour with nothing without a bar', async () => {
    const host = await shown(hourlyChart([hour(0, 4, 1, 0), hour(1, 0, 0, 0), hour(2, 1, 0, 0)], consoleEn));
    const bars = [...host.querySelectorAll('svg g')].map((group) => [...group.querySelectorAll('rect')].reduce((sum, rect) => sum + Number(rect.getAttribute('height')), 0));
    expect(bars[0]).to.be.closeTo(176, 0.01);
    expect(bars[1]).to.equal(0);
    expect(bars[2]).to.be.closeTo(176 / 5, 0.01);
  });

  it('is written in the operator’s language', async () => {
    const host = await shown(hourlyChart(hours, consoleFr));
    expect(host.querySelector('figcaption')!.textContent).to.equal(consoleFr.overview.perHour);
    expect(host.querySelector('#per-hour-summary')!.textContent).to.equal(consoleFr.overview.perHourSummary(31, 2, 0));
  });
});

describe('the operators’ completion rates', () => {
  const rate = (completed: number, finished: number) => ({ completed, finished, rate: finished === 0 ? null : completed / finished });
  const operators: ConsoleOperatorRate[] = [
    { operator: 'MTN', lastHour: rate(9, 10), lastDay: rate(90, 100), usual: rate(900, 1000), belowUsual: false },
    { operator: 'Moov', lastHour: rate(2, 10), lastDay: rate(80, 100), usual: rate(850, 1000), belowUsual: true },
  ];

  it('says in words, not by colour alone, the operator that fell below its usual rate', async () => {
    const host = await fixture<HTMLElement>(html`<div><h2 id="rates">Rates</h2></div>`);
    render(operatorRatesTable(operators, consoleEn, 'rates'), host);
    const rows = [...host.querySelectorAll('tbody tr')];
    expect(rows.map((row) => row.querySelector('th')!.textContent!.trim())).to.deep.equal(['MTN', `Moov⚠ ${consoleEn.overview.belowUsual}`]);
    expect(rows[1]!.querySelector('td')!.textContent!.trim()).to.equal(consoleEn.overview.rate(0.2, 10));
    expect(rows[0]!.querySelector('svg rect.completed')!.getAttribute('width')).to.equal('90');
    await expect(host).to.be.accessible();
  });

  it('says there is no operator yet rather than an empty table', async () => {
    const host = await shown(operatorRatesTable([], consoleEn, 'rates'));
    expect(host.textContent!.trim()).to.equal(consoleEn.overview.noOperator);
    expect(host.querySelector('table')).to.equal(null);
  });
});

describe('the console’s routes', () => {
  it('reads the section and the order id from the address’s hash', () => {
    expect(routeOf('#/payments/order%2F42')).to.deep.equal({ name: 'payment', orderId: 'order/42' });
    expect(routeOf('#/endpoint')).to.deep.equal({ name: 'endpoint' });
    expect(routeOf('#/nowhere')).to.deep.equal({ name: 'overview' });
    const list = routeOf('#/payments?state=failed');
    expect(list.name === 'payments' && list.params.get('state')).to.equal('failed');
  });
});
