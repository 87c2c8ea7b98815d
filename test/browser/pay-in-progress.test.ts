/**
 * Issue 45: the companion answers `PAYMENT_IN_PROGRESS` while the checkout has no payment to show
 * (a companion that died mid-pay left its lock for a few seconds). The element never shows that as
 * a refusal: it stays on "sending" and re-posts the same request by itself until the companion
 * answers with a payment, or a real refusal.
 */
import { expect } from '@open-wc/testing';
import { CompanionRequestError } from '../../src/client/errors.js';
import type { PayRequest } from '../../src/contract/companion.js';
import { $, calls, enterNumber, mount, payment, reach, statusesOf } from './fixtures.js';

const inProgress = () => new CompanionRequestError('PAYMENT_IN_PROGRESS', 409, 'This payment is already being sent. Wait a moment.');

describe('<momo-checkout> when the companion says the payment is already being sent', () => {
  it('with no payment to show: stays on "sending", re-posts the same request, and ends on the payment', async () => {
    let answered = 0;
    const m = await mount({
      pay: () => {
        answered += 1;
        if (answered <= 2) throw inProgress();
        return payment('pending', 1);
      },
      status: null,
    });
    await enterNumber(m);
    const mark = m.events.length;
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    const pays = calls(m.client, 'pay') as PayRequest[];
    expect(pays.length).to.equal(3, 'the first press and two re-posts');
    expect(new Set(pays.map((request) => JSON.stringify(request))).size).to.equal(1, 'the same request each time');
    expect(statusesOf(m.events.slice(mark))).to.deep.equal(['submitting', 'awaiting-approval'], 'on "sending" until the payment');
    expect(m.events.filter((event) => event.type === 'momo-error')).to.deep.equal([], 'no refusal shown');
  });

  it('a payment that shows up meanwhile is shown, and not posted again', async () => {
    const m = await mount({ pay: inProgress(), status: null });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'submitting');
    m.client.update({ status: payment('pending', 1) });
    await reach(m.el, 'awaiting-approval');
    const posted = calls(m.client, 'pay').length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls(m.client, 'pay').length).to.equal(posted, 'no re-post once the payment shows');
  });

  it('a real refusal after a re-post is shown as before', async () => {
    let answered = 0;
    const m = await mount({
      pay: () => {
        answered += 1;
        if (answered === 1) throw inProgress();
        throw new CompanionRequestError('NO_OPERATOR', 422, 'No mobile money operator of this number takes payments in XOF.');
      },
      status: null,
    });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'ready');
    expect(calls(m.client, 'pay').length).to.equal(2);
    expect(m.events.filter((event) => event.type === 'momo-error').map((event) => (event as CustomEvent<{ code: string }>).detail.code)).to.deep.equal(['NO_OPERATOR']);
  });
});
