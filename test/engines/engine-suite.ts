/**
 * Issue 33: the payer's flows, the first step's screens and the operations console, written once
 * and run in Firefox (firefox.test.ts) and WebKit (webkit.test.ts) against the demo store and the
 * sandbox (the e2e harness's `startTestDemo`). Every test name starts with its engine, so that the
 * closing line (engine-summary-reporter.ts) counts each engine's tests.
 *
 * Chromium runs the same flows, with more detail, in test/e2e/.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SANDBOX_OTP } from '../../src/sandbox/index.js';
import { describeViolations } from '../support/axe.js';
import { startTestDemo, type TestDemo } from '../e2e/harness.js';
import { EnginePage, type EngineDriver, type EngineName, type FirstStepLayout } from './engine-page.js';

/** Kept for a person to look at (gitignored): the first step per engine, width and language. */
export const artifactDir = fileURLToPath(new URL('../../test-output/engines/', import.meta.url));

// Sandbox test numbers (src/sandbox/catalogue/test-numbers.ts).
const pushApproves = '+2290196000001';
const otpApproves = '+2290194000001';
const consolePassword = 'engines-suite-console-password';

/** The phone field of the first step is on screen (language-neutral: Arabic labels it in Arabic). */
export const firstStepReady = "!!document.querySelector('momo-checkout')?.shadowRoot?.querySelector('#phone')?.getBoundingClientRect().width";

export interface EngineSuite {
  engine: EngineName;
  open(width: number, height: number): Promise<EngineDriver>;
  /**
   * The first step at a width the engine's own window cannot reach (WebKit's MiniBrowser stops at
   * 447 px): measures it and saves the PNG. Absent where `setViewport` goes that narrow.
   */
  narrowScreen?(url: string, width: number, height: number, png: string): Promise<{ layout: FirstStepLayout; problems: string[] }>;
}

function assertFirstStepFits(engine: EngineName, lang: string, width: number, layout: FirstStepLayout): void {
  const where = `${engine}, ${lang}, ${width} px: ${JSON.stringify(layout)}`;
  assert.equal(layout.innerWidth, width, `the window is ${width} px wide (${where})`);
  assert.ok(layout.scrollWidth <= width, `nothing wider than the window (${where})`);
  assert.ok(layout.hostRight <= width && layout.hostWidth >= Math.min(280, width * 0.7), `the checkout is shown whole, not blank or cut (${where})`);
  assert.equal(layout.dir, lang === 'ar' ? 'rtl' : 'ltr', `Arabic reads right to left (${where})`);
}

export function engineSuite(suite: EngineSuite): void {
  const { engine } = suite;
  describe(`engines: ${engine}`, () => {
    let env: TestDemo;
    let driver: EngineDriver;
    let page: EnginePage;

    before(async () => {
      await mkdir(artifactDir, { recursive: true });
      env = await startTestDemo({ consolePassword });
      try {
        driver = await suite.open(1280, 900);
      } catch (error) {
        await env.demo.close();
        throw error;
      }
      page = new EnginePage(driver);
      console.log(`${engine}: ${driver.version}`);
    });

    after(async () => {
      env?.webhooks.release();
      await driver?.close();
      await env?.demo.close();
    });

    it(`${engine}: a push payment, paid over the status stream`, async () => {
      const mark = env.requests.length;
      await page.goto(`${env.demo.url}/`);
      await page.fill('Mobile money number', pushApproves, 'Tab');
      await page.waitForText('MTN MoMo');
      await page.click('button', /^Pay /);
      await page.waitForRole('heading', 'Approve the payment on your phone');
      await page.waitForText(/Time left: /);
      await page.waitForRole('heading', 'Payment received');
      await page.waitForText('Order paid. Thank you!');
      // What the page asked the companion: the outcome came over the status stream, not by polling.
      const companionCalls = env.requests.slice(mark).filter((line) => line.includes(' /momo/checkout/'));
      assert.ok(companionCalls.includes('GET /momo/checkout/events'), `the page opened the status stream: ${companionCalls.join(', ')}`);
      assert.ok(!companionCalls.includes('GET /momo/checkout/status'), `the outcome did not come by polling: ${companionCalls.join(', ')}`);
      assert.deepEqual(driver.problems(), [], 'no console error, no uncaught exception');
    });

    it(`${engine}: an OTP payment, a wrong code refused, then the right one paid`, async () => {
      await page.goto(`${env.demo.url}/`);
      await page.fill('Mobile money number', otpApproves, 'Tab');
      await page.click('button', 'Continue');
      await page.waitForRole('heading', 'Enter your payment code');
      await page.waitForRole('link', 'Dial *145*4#');
      await page.fill('Payment code', '000000', 'Enter');
      await page.waitForText('This code was not accepted');
      await page.fill('Payment code', SANDBOX_OTP, 'Enter');
      await page.waitForRole('heading', 'Payment received');
      // The refused code is a 400 from the companion, which Firefox logs as a failed resource.
      assert.deepEqual(driver.problems().filter((line) => !/status of 400|400 \(Bad Request\)/.test(line)), []);
    });

    it(`${engine}: the approval page at a desktop (QR code or at once), approved, back to the shop, paid`, async () => {
      await page.goto(`${env.demo.url}/`);
      const shopUrl = new URL(await page.url());
      await page.fill('Mobile money number', pushApproves, 'Tab');
      await page.click('radio', 'Pay with Wallet');
      // A fine pointer and a wide window get the QR code for the phone (src/element/phone-handoff.ts);
      // a headless engine reports `pointer: none` and is sent to the page at once, as a phone is.
      const handoff = await driver.run<boolean>("return matchMedia('(pointer: fine) and (min-width: 1024px)').matches;");
      await page.click('button', /^Pay /, { navigates: !handoff });
      if (handoff) {
        await page.waitForRole('img', /^QR code of the approval page on /);
        await page.click('link', 'Continue on this device instead', { navigates: true });
      }
      await page.waitUntil('the approval page', async () => new URL(await page.url()).pathname.startsWith('/authorize/'));
      await page.waitForRole('heading', 'Approve this payment?');
      await page.click('button', 'Approve', { navigates: true });
      await page.waitUntil('the way back to the shop', async () => {
        const back = new URL(await page.url());
        return back.pathname === '/' && back.searchParams.get('order') === shopUrl.searchParams.get('order');
      });
      await page.waitForRole('heading', 'Payment received');
    });

    for (const lang of ['en', 'ar'] as const) {
      for (const width of [360, 1280]) {
        it(`${engine}: the first step at ${width} px in ${lang === 'en' ? 'English' : 'Arabic'} fits, and is photographed${width === 1280 ? ', axe finds no violation' : ''}`, async () => {
          const url = `${env.demo.url}/?lang=${lang}`;
          const png = join(artifactDir, `${engine.toLowerCase()}-first-step-${lang}-${width}.png`);
          if (suite.narrowScreen && width < 447) {
            const report = await suite.narrowScreen(url, width, 800, png);
            assertFirstStepFits(engine, lang, width, report.layout);
            assert.deepEqual(report.problems, [], 'no console error, no uncaught exception');
            return;
          }
          await driver.setViewport(width, 800);
          try {
            await page.goto(url);
            await page.waitUntil('the first step', () => driver.run<boolean>(`return ${firstStepReady};`));
            assertFirstStepFits(engine, lang, width, await page.layout());
            await driver.screenshot(png);
            // axe at the desktop width (the narrow one is the same markup); Chromium's e2e runs it too.
            if (width === 1280) assert.equal(describeViolations(await page.axe()), '');
          } finally {
            await driver.setViewport(1280, 900);
          }
        });
      }
    }

    if (!suite.narrowScreen) {
      it(`${engine}: as an engine without container queries or :has() (older than the matrix), the first step at 360 px keeps the number on its own row, and pays`, async () => {
        await driver.setViewport(360, 800);
        try {
          await page.goto(`${env.demo.url}/`);
          await page.waitUntil('the first step', () => driver.run<boolean>(`return ${firstStepReady};`));
          const modern = await page.layout();
          assert.ok(await page.asOlderEngine() >= 3, 'the @container rule, container-type and the :has() rule are gone');
          const older = await page.layout();
          assertFirstStepFits(engine, 'en', 360, older);
          // src/element/older-engine-styles.ts: the window's width stands in for the element's.
          assert.ok(older.phoneWidth >= modern.phoneWidth - 2, `the number field keeps its width (${older.phoneWidth} px, ${modern.phoneWidth} px with container queries)`);
          await driver.screenshot(join(artifactDir, `${engine.toLowerCase()}-first-step-older-engine-360.png`));
          await page.fill('Mobile money number', pushApproves, 'Tab');
          await page.click('button', /^Pay /);
          await page.waitForRole('heading', 'Payment received');
        } finally {
          await driver.setViewport(1280, 900);
        }
      });
    }

    it(`${engine}: the operations console opens, refuses a wrong secret and signs in`, async () => {
      assert.ok(env.demo.consoleUrl, 'the demo serves the console');
      await page.goto(env.demo.consoleUrl);
      await page.fill('Secret or password', 'this-is-not-the-secret', 'Enter', { navigates: true });
      await page.waitForText('not the right one');
      await page.fill('Secret or password', consolePassword, 'Enter', { navigates: true });
      await page.waitForRole('heading', 'Overview');
      await page.waitForText('Payments per hour, last 24 hours');
      await driver.screenshot(join(artifactDir, `${engine.toLowerCase()}-console-overview.png`));
      assert.equal(describeViolations(await page.axe()), '');
    });
  });
}
