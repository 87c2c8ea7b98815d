/**
 * Issue 41: docs/deploy.md section 7, a staging host. The guide's sandbox command and environment
 * file (with its staging lines) behind Debian's nginx running the guide's file with a self-signed
 * certificate (a private CA): the first payment paid in Chromium, its notification coming through
 * nginx. Beside it, what the guide says goes wrong without its variables and what the merchant then
 * sees: the sandbox without NODE_EXTRA_CA_CERTS loses the notification and says so; the CLI through
 * the proxy's public address meets nginx's 403 and names it; Prometheus without docs/metrics.md's
 * `tls_config` is down on the certificate, up with it. And `serve --sandbox` behind the same nginx
 * file: logos and the approval page through the proxy over https, "Pay with Wallet" approved.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { freePort } from '../support/free-port.js';
import { newOrderId, provesPaymentInChromium } from './behind-proxy.js';
import { SANDBOX_OTP } from '../../src/sandbox/index.js';
import { createMerchantPing } from '../../src/server/deliveries/merchant-notifications.js';
import { guideBlock, requireProgram, root, substitute } from './guide.js';
import { listening, startNginx, type RunningNginx } from './nginx-runner.js';
import { guideSandboxCommand, startShop, startStack, type Stack } from './stack.js';

const cli = join(root, 'src/server/cli.ts');
const prometheusBinary = process.env.PROMETHEUS_PATH || '/usr/bin/prometheus';

function runCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** docs/metrics.md's yaml blocks: the scrape job, then the tls_config lines. */
async function metricsBlocks(): Promise<[string, string]> {
  const page = await readFile(join(root, 'docs/metrics.md'), 'utf8');
  const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)\n```/g)].map((match) => match[1]!);
  const job = blocks.find((block) => block.startsWith('# prometheus.yml'));
  const tls = blocks.find((block) => block.trimStart().startsWith('tls_config:'));
  assert.ok(job && tls, 'docs/metrics.md has the prometheus.yml block and the tls_config block');
  return [job, tls];
}

/**
 * The wallet in Chromium on a page whose number is typed: a logo loaded through the proxy, the
 * approval page's link under `pagesAt` (the sandbox's pages, as the proxy serves them), approved.
 */
async function approveWithWallet(page: Page, pagesAt: string): Promise<void> {
  const logo = page.locator(`momo-checkout img[src^="${pagesAt}/logos/"]`).first();
  await logo.waitFor();
  assert.ok(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'an operator logo loaded through the proxy');
  await page.getByRole('radio', { name: 'Pay with Wallet' }).check();
  await page.getByRole('button', { name: /^Pay / }).click();
  const link = page.getByRole('link', { name: 'Continue on this device instead' });
  await link.waitFor({ timeout: 20_000 });
  assert.ok(String(await link.getAttribute('href')).startsWith(`${pagesAt}/authorize/`), String(await link.getAttribute('href')));
  await link.click();
  await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
  await page.getByRole('button', { name: 'Approve' }).click();
}

describe('docs/deploy.md section 7: staging with the sandbox behind nginx and a private certificate', () => {
  let stack: Stack;
  let nginx: RunningNginx;
  let browser: Browser;

  before(async () => {
    stack = await startStack({ heartbeatMs: 15_000 });
    // Section 7's locations for the sandbox's pages, where the guide says: inside the https server block.
    const staging = await guideBlock('staging-nginx');
    nginx = await startNginx(stack, 'nginx', { port: stack.proxyPort, httpPort: await freePort() }, [['127.0.0.1:4010', `127.0.0.1:${stack.sandboxPort}`]], (file) =>
      substitute(file, [['    # Your shop (PHP-FPM', `${staging}\n\n    # Your shop (PHP-FPM`]]),
    );
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('pays the first payment in Chromium, its notification coming through nginx over https', async () => {
    await provesPaymentInChromium(stack, browser);
    const log = await nginx.accessLog();
    assert.ok(log.some((line) => /^HTTP\/1\.1 POST \/momo\/webhook 200/.test(line)), `the sandbox's notification came through nginx:\n${log.join('\n')}`);
  });

  it('pays by OTP and with the wallet in Chromium: the approval page and the logos through nginx over https (SANDBOX_PUBLIC_URL)', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      const insecure: string[] = [];
      page.on('request', (request) => void (request.url().startsWith('http://') && insecure.push(request.url())));
      const pay = async (number: string) => {
        const orderId = newOrderId();
        await page.goto(`${stack.origin}/checkout?order=${orderId}`);
        const field = page.getByLabel('Mobile money number');
        await field.pressSequentially(number);
        await field.press('Tab');
        return orderId;
      };
      await pay('+2290194000001');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Payment code').fill(SANDBOX_OTP);
      await page.getByLabel('Payment code').press('Enter');
      await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 20_000 });

      const walletOrder = await pay('+2290196000001');
      await approveWithWallet(page, `${stack.origin}/sandbox`);
      await stack.until('the wallet payment completed', async () => {
        const details = await fetch(`http://127.0.0.1:${stack.companionPort}/momo/server/payments/${walletOrder}`, { headers: { authorization: `Bearer ${stack.serverSecret}` } });
        return ((await details.json()) as { payment?: { state: string } }).payment?.state === 'completed';
      });
      assert.deepEqual(insecure, [], 'nothing the payer loaded left https');
      const refused = stack.companionLines().filter((line) => String(line.msg).includes('authorizationUrl refused'));
      assert.deepEqual(refused, [], 'the companion refused no approval page');
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- logs ---\n${stack.logs()}`, { cause: error });
    } finally {
      await context.close();
    }
  });

  it('without NODE_EXTRA_CA_CERTS the sandbox loses the notification and says so, with the variable to set', async () => {
    const port = await freePort();
    const { env, args } = await guideSandboxCommand(port, stack.cert, stack.origin);
    const { NODE_EXTRA_CA_CERTS: _trusted, ...untrusted } = env;
    stack.spawnChild('sandbox-untrusted', process.execPath, args, { ...untrusted, PUSH_DELAY_MS: '50' });
    await stack.until('the second sandbox to listen', () => listening(port));
    const orderId = newOrderId();
    const payIn = await fetch(`http://127.0.0.1:${port}/v1/pay-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.SANDBOX_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, amount: 5000, phoneNumber: '+2290196000001', currencyCode: 'XOF', webhookUrl: `${stack.origin}/momo/webhook` }),
    });
    assert.equal(payIn.status, 200, await payIn.text());
    await stack.until('the sandbox to say the notification was not delivered', async () =>
      new RegExp(`\\[sandbox-untrusted\\] sandbox: NOT DELIVERED: webhook ${orderId} \\w+ to https://127\\.0\\.0\\.1:\\d+/momo/webhook: could not reach the receiver \\(fetch failed: DEPTH_ZERO_SELF_SIGNED_CERT\\).*NODE_EXTRA_CA_CERTS`).test(stack.logs()),
    );
  });

  it('the CLI meets nginx\'s 403 at the public address and names the proxy; MOMO_SERVER_URL on the host reaches the server API', async () => {
    const publicAddress = await runCli(['payments', '--stale'], { MOMO_SERVER_URL: `${stack.origin}/momo/server`, MOMO_SERVER_SECRET: stack.serverSecret, NODE_EXTRA_CA_CERTS: stack.cert });
    assert.equal(publicAddress.status, 1, publicAddress.stdout + publicAddress.stderr);
    assert.match(publicAddress.stdout, /HTTP 403 from nginx \(its Server header\) at .*: a proxy in front of the companion refused the server API/);
    const onHost = await runCli(['payments', '--stale'], { MOMO_SERVER_URL: `http://127.0.0.1:${stack.companionPort}/momo/server`, MOMO_SERVER_SECRET: stack.serverSecret });
    assert.equal(onHost.status, 0, onHost.stdout + onHost.stderr);
    assert.match(onHost.stdout, /payment\(s\) in the companion at http:\/\/127\.0\.0\.1:\d+\/momo\/server that need attention/);
  });

  it('each TLS failure names NODE_EXTRA_CA_CERTS: the CLI, a merchant notification, doctor --proxy; doctor says whether the server API answered', async () => {
    const cliUntrusted = await runCli(['payments', '--stale'], { MOMO_SERVER_URL: `${stack.origin}/momo/server`, MOMO_SERVER_SECRET: stack.serverSecret });
    assert.equal(cliUntrusted.status, 1, cliUntrusted.stdout + cliUntrusted.stderr);
    assert.match(cliUntrusted.stdout + cliUntrusted.stderr, /not trusted by this command \(DEPTH_ZERO_SELF_SIGNED_CERT\).*NODE_EXTRA_CA_CERTS=/);
    assert.doesNotMatch(cliUntrusted.stdout + cliUntrusted.stderr, /is `momo-checkout serve` running there/);

    // The merchant endpoint's sink (the one the delivery worker retries with) behind the same certificate.
    const ping = await createMerchantPing({ url: `${stack.origin}/momo/webhook`, secret: `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}` })();
    assert.equal(ping.ok, false);
    assert.match(ping.ok ? '' : ping.error, /not trusted by the companion \(DEPTH_ZERO_SELF_SIGNED_CERT\).*NODE_EXTRA_CA_CERTS=/);

    const companionEnv = { MOMO_BASE_URL: `http://127.0.0.1:${stack.sandboxPort}`, MOMO_API_KEY: 'sk_test_sandbox_staging', MOMO_WEBHOOK_SECRETS: 'whsec_staging', MOMO_PUBLIC_URL: `${stack.origin}/momo`, MOMO_SERVER_SECRET: stack.serverSecret, MOMO_STORE: 'memory' };
    const trusted = await runCli(['doctor', '--proxy'], { ...companionEnv, NODE_EXTRA_CA_CERTS: stack.cert, MOMO_SERVER_URL: `http://127.0.0.1:${stack.companionPort}/momo/server` });
    const trustedText = trusted.stdout + trusted.stderr;
    assert.match(trustedText, /ok\s+proxy: https:\/\/127\.0\.0\.1:\d+\/momo answered HTTP \d+ over TLS with a certificate trusted by the public CAs and NODE_EXTRA_CA_CERTS=/, trustedText);
    assert.match(trustedText, /ok\s+server API: answered at http:\/\/127\.0\.0\.1:\d+\/momo\/server and took MOMO_SERVER_SECRET/, trustedText);
    const untrusted = await runCli(['doctor', '--proxy'], { ...companionEnv, MOMO_SERVER_URL: `http://127.0.0.1:${await freePort()}/momo/server` });
    const untrustedText = untrusted.stdout + untrusted.stderr;
    assert.equal(untrusted.status, 1, untrustedText);
    assert.match(untrustedText, /FAIL\s+proxy: .*DEPTH_ZERO_SELF_SIGNED_CERT.*NODE_EXTRA_CA_CERTS=.*\(NODE_EXTRA_CA_CERTS is not set\)/, untrustedText);
    assert.match(untrustedText, /WARN\s+server API: could not reach the companion at .*ECONNREFUSED/, untrustedText);
    assert.doesNotMatch(untrustedText, /accepts it/);
  });

  it("Prometheus scrapes through nginx with docs/metrics.md's tls_config, and is down on the certificate without it", async () => {
    requireProgram(prometheusBinary, ['--version'], 'prometheus');
    const [job, tls] = await metricsBlocks();
    const dir = join(stack.dir, 'prometheus');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'token'), stack.serverSecret);
    const scrape = substitute(job, [
      ["targets: ['shop.example']", `targets: ['127.0.0.1:${stack.proxyPort}']`],
      ['/etc/prometheus/momo-metrics-token', join(dir, 'token')],
    ]).replace('# prometheus.yml\nscrape_configs:\n', '');
    const trusted = `${scrape}\n${substitute(tls, [['/etc/prometheus/staging-ca.pem', stack.cert]])}`;
    const config = `global:\n  scrape_interval: 1s\nscrape_configs:\n${trusted}\n${scrape.replace('job_name: momo-checkout', 'job_name: momo-checkout-untrusted')}\n`;
    await writeFile(join(dir, 'prometheus.yml'), config);
    const check = spawnSync('/usr/bin/promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    assert.equal(check.status, 0, `${check.stdout}${check.stderr}\n${config}`);
    const port = await freePort();
    stack.spawnChild('prometheus', prometheusBinary, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`]);
    type Target = { labels: { job: string }; health: string; lastError: string };
    let targets: Target[] = [];
    await stack.until(
      'both targets scraped once',
      async () => {
        const answer = (await (await fetch(`http://127.0.0.1:${port}/api/v1/targets`)).json()) as { data: { activeTargets: Target[] } };
        targets = answer.data.activeTargets;
        return targets.length === 2 && targets.every((target) => target.health !== 'unknown');
      },
      60_000,
    );
    const byJob = Object.fromEntries(targets.map((target) => [target.labels.job, target]));
    assert.equal(byJob['momo-checkout']?.health, 'up', JSON.stringify(byJob));
    assert.equal(byJob['momo-checkout-untrusted']?.health, 'down');
    assert.match(byJob['momo-checkout-untrusted']!.lastError, /x509/);
  });

  it('serve --sandbox behind the same nginx file: logos and the approval page over https through it, Pay with Wallet approved', async () => {
    const [proxyPort, servePort, shopPort] = [await freePort(), await freePort(), await freePort()];
    const origin = `https://127.0.0.1:${proxyPort}`;
    const serverSecret = 'b'.repeat(64);
    stack.spawnChild('serve-sandbox', process.execPath, ['--import', 'tsx', cli, 'serve', '--sandbox'], {
      HOST: '127.0.0.1',
      PORT: String(servePort),
      MOMO_PUBLIC_URL: `${origin}/momo`,
      MOMO_SERVER_SECRET: serverSecret,
      MOMO_TRUST_PROXY: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: stack.cert,
    });
    await stack.until('serve --sandbox to listen', () => listening(servePort));
    const shop = await startShop({ port: shopPort, companionPort: servePort, serverSecret, bundle: stack.bundle });
    try {
      await startNginx({ ...stack, companionPort: servePort, shopPort }, 'nginx-serve-sandbox', { port: proxyPort, httpPort: await freePort() });
      const orderId = newOrderId();
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      try {
        const page = await context.newPage();
        const insecure: string[] = [];
        page.on('request', (request) => void (request.url().startsWith('http://') && insecure.push(request.url())));
        await page.goto(`${origin}/checkout?order=${orderId}`);
        const field = page.getByLabel('Mobile money number');
        await field.pressSequentially('+2290196000001');
        await field.press('Tab');
        await approveWithWallet(page, `${origin}/momo`);
        await stack.until('the wallet payment completed', async () => {
          const details = await fetch(`http://127.0.0.1:${servePort}/momo/server/payments/${orderId}`, { headers: { authorization: `Bearer ${serverSecret}` } });
          return ((await details.json()) as { payment?: { state: string } }).payment?.state === 'completed';
        });
        assert.deepEqual(insecure, [], 'nothing the payer loaded left https');
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- logs ---\n${stack.logs()}`, { cause: error });
      } finally {
        await context.close();
      }
    } finally {
      await new Promise((resolve) => shop.close(resolve));
      shop.closeAllConnections();
    }
  });
});
