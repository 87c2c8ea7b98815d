/**
 * Issue 54's app page (`<publicUrl>/app/checkout`), as the server answers it: the checkout alone
 * under the link pages' strict CSP, the bridge script before the element's, the channel a script
 * name, and a return address followed only when its scheme is one the merchant configured (never
 * an open redirect); `appReturnSchemes` refuses a browser's own schemes at start, from the options
 * and from the environment. The outcome's delivery in real WebViews: test/engines/app-webview.test.ts
 * and test/e2e/app-webview.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { companionOptionsFromEnv, createCompanion, CompanionConfigError } from '../../../src/server/index.js';
import { startHarness, type Harness } from '../harness.js';

const elementDir = mkdtempSync(join(tmpdir(), 'momo-app-page-'));
writeFileSync(join(elementDir, 'manifest.json'), JSON.stringify({ files: [{ file: 'momo-checkout-test.js', format: 'iife', integrity: 'sha384-test' }], languages: [] }));
writeFileSync(join(elementDir, 'momo-checkout-test.js'), '/* the element */');
after(() => rmSync(elementDir, { recursive: true, force: true }));

describe('the app page', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ setupChecksAtStart: false, elementAssetsDir: elementDir, appReturnSchemes: ['shopapp'] });
  });
  after(() => h?.close());
  const open = (query: string) => fetch(`${h.base}/app/checkout${query}`);

  it('answers the checkout alone, under the strict CSP, the bridge script before the element, no token in the page', async () => {
    const answer = await open('');
    const html = await answer.text();
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-security-policy') ?? '', /script-src 'self';.*frame-ancestors 'none'/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.match(html, /<main class="app" data-channel="momoCheckout" data-return="">\n<momo-checkout endpoint="\/momo" lang="en"><\/momo-checkout>/);
    assert.ok(html.indexOf('/momo/app/assets/app.js') < html.indexOf('/momo/l/assets/momo-checkout-test.js'), 'the bridge runs first and gives the element its token');
    assert.doesNotMatch(html, /token=|<a\b|target=|<form\b|<header\b/, 'nothing but the checkout: no link out, no new window, no token');
    const script = await fetch(`${h.base}/app/assets/app.js`);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await script.text(), /momo-checkout\.outcome/);
  });

  it("takes the app's channel name and a return address of a configured scheme", async () => {
    const html = await (await open(`?channel=shopBridge&return=${encodeURIComponent('shopapp://paid?from=cart')}&lang=fr`)).text();
    assert.match(html, /data-channel="shopBridge" data-return="shopapp:\/\/paid\?from=cart"/);
    assert.match(html, /lang="fr"/);
  });

  it('refuses, with what to do, a channel that is no script name or is the browser\'s own', async () => {
    for (const channel of ['a-b', '1x', 'parent', 'webkit', 'x'.repeat(65), '']) {
      const answer = await open(`?channel=${encodeURIComponent(channel)}`);
      assert.equal(answer.status, 400, channel);
      assert.match(await answer.text(), /register|JavaScript name/);
    }
  });

  it('follows no return address whose scheme the shop did not configure: no open redirect', async () => {
    for (const target of ['https://evil.example/', 'javascript:alert(1)', 'otherapp://paid', '//evil.example', 'SHOPAPP', '']) {
      const answer = await open(`?return=${encodeURIComponent(target)}`);
      assert.equal(answer.status, 400, target);
      const html = await answer.text();
      assert.match(html, /appReturnSchemes \(shopapp\)/);
      assert.doesNotMatch(html, /data-return/);
    }
  });
});

describe('appReturnSchemes', () => {
  const base = { baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test_x', webhookSecrets: ['whsec_x'], publicUrl: 'http://127.0.0.1:2/momo', allowedOrigins: [], allowInsecureLocalUrls: true, setupChecksAtStart: false };

  it("refuses at start a scheme browsers open themselves, or one that is not a scheme, naming the option", () => {
    for (const scheme of ['https', 'javascript', 'intent', 'Shop App', 'shopapp:']) {
      assert.throws(() => createCompanion({ ...base, appReturnSchemes: [scheme] }), (error: unknown) => error instanceof CompanionConfigError && /appReturnSchemes/.test(error.message), scheme);
    }
  });

  it('is read from MOMO_APP_RETURN_SCHEMES, comma-separated, and refused there the same way', () => {
    const env = { MOMO_BASE_URL: 'https://api.example.com', MOMO_API_KEY: 'sk_test_x', MOMO_WEBHOOK_SECRETS: 'whsec_x', MOMO_PUBLIC_URL: 'https://shop.example/momo' };
    assert.deepEqual(companionOptionsFromEnv({ ...env, MOMO_APP_RETURN_SCHEMES: 'shopapp, com.shop.app' }).appReturnSchemes, ['shopapp', 'com.shop.app']);
    assert.equal(companionOptionsFromEnv(env).appReturnSchemes, undefined);
    assert.throws(() => companionOptionsFromEnv({ ...env, MOMO_APP_RETURN_SCHEMES: 'shopapp,http' }), /MOMO_APP_RETURN_SCHEMES: http is a scheme browsers open/);
  });
});
