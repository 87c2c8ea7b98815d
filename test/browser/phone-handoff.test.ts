/**
 * Issue 23, "Done when": on a 1280 px non-touch viewport the approval step shows a QR code and a
 * link; on a phone-sized touch viewport it opens the page as today.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import type { ApprovalQrView } from '../../src/contract/companion.js';
import { phoneHandoffQuery } from '../../src/element/phone-handoff.js';
import { $, calls, enterNumber, mount, payment, reach, text } from './fixtures.js';
import type { Mounted } from './fixtures.js';

const approvalUrl = 'https://pay.example/authorize/1?t=x';
const qr: ApprovalQrView = { url: approvalUrl, size: 21, path: 'M0 0h7v1h-7zM14 0h7v1h-7z' };

/** A screen of this size, touch or not, once the page has laid itself out again (media queries follow). */
async function screen(width: number, height: number, touch: boolean): Promise<void> {
  await setViewport({ width, height });
  await executeServerCommand('touch-screen', { enabled: touch });
  await new Promise(requestAnimationFrame);
}

async function toApprovalPage(script: Parameters<typeof mount>[0] = {}): Promise<Mounted> {
  const m = await mount({ pay: () => payment('awaiting-redirect', 1, { workflow: 'redirect_url' }), approvalQr: qr, ...script });
  await enterNumber(m);
  $(m.root, '[part="submit-button"]').click();
  await reach(m.el, 'awaiting-redirect');
  m.client.emit(payment('redirect-ready', 2, { workflow: 'redirect_url', authorizationUrl: approvalUrl }));
  await reach(m.el, 'redirecting');
  return m;
}

describe('<momo-checkout> approving on the phone from a desktop', () => {
  afterEach(async () => screen(800, 600, false));

  it('shows a QR code of the approval page and a link on a 1280 px screen with a mouse, and stays', async () => {
    await screen(1280, 800, false);
    expect(matchMedia(phoneHandoffQuery).matches, 'a wide screen with a fine pointer').to.equal(true);
    const m = await toApprovalPage();
    await m.el.updateComplete;
    const svg = $(m.root, 'svg.qr');
    expect(svg.getAttribute('role')).to.equal('img');
    expect(svg.getAttribute('aria-label')).to.equal('QR code of the approval page on pay.example');
    expect(svg.querySelector('path')!.getAttribute('d')).to.equal(qr.path);
    const link = $(m.root, 'a.continue-here') as HTMLAnchorElement;
    expect(link.href).to.equal(approvalUrl);
    expect(text(m.root)).to.contain('Scan this code with your phone’s camera');
    expect(m.navigations).to.deep.equal([]);
    expect(calls(m.client, 'approvalQr')).to.have.length(1);
    await expect(m.el).to.be.accessible();

    // The payer approves on the phone: the status stream finishes the checkout here.
    m.client.emit(payment('completed', 3, { workflow: 'redirect_url' }));
    await reach(m.el, 'succeeded');
    expect(m.navigations).to.deep.equal([]);
  });

  it('opens the approval page in this tab when the payer takes the link (the keyboard path)', async () => {
    await screen(1280, 800, false);
    const m = await toApprovalPage();
    const link = $(m.root, 'a.continue-here');
    link.focus();
    expect(m.el.shadowRoot!.activeElement).to.equal(link);
    link.click();
    expect(m.navigations).to.deep.equal([approvalUrl]);
  });

  it('keeps the link when the companion cannot draw the QR code', async () => {
    await screen(1280, 800, false);
    const m = await toApprovalPage({ approvalQr: new Error('older companion') });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(m.root.querySelector('svg.qr')).to.equal(null);
    expect(($(m.root, 'a.continue-here') as HTMLAnchorElement).href).to.equal(approvalUrl);
    expect(m.navigations).to.deep.equal([]);
  });

  it('opens the approval page as today on a phone-sized touch screen', async () => {
    await screen(390, 844, true);
    expect(matchMedia('(pointer: coarse)').matches, 'the touch screen is emulated').to.equal(true);
    const m = await toApprovalPage();
    expect(m.navigations).to.deep.equal([approvalUrl]);
    expect(m.root.querySelector('svg.qr')).to.equal(null);
    expect(calls(m.client, 'approvalQr')).to.deep.equal([]);
  });

  it('opens the page as today on a wide touch screen (a tablet)', async () => {
    await screen(1280, 800, true);
    const m = await toApprovalPage();
    expect(m.navigations).to.deep.equal([approvalUrl]);
  });
});
