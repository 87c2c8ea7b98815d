import { expect } from '@open-wc/testing';
import { $, enterNumber, mount, payment, reach, text } from './fixtures.js';

describe('<momo-checkout> leaving for the approval page', () => {
  for (const [lang, expected] of [
    ['en', 'You will continue on pay.example:8443'],
    ['fr', 'Vous allez continuer sur pay.example:8443'],
  ] as const) {
    it(`names the host the payer is sent to (${lang})`, async () => {
      const m = await mount({ pay: () => payment('awaiting-redirect', 1, { workflow: 'redirect_url' }) }, { lang });
      await enterNumber(m);
      $(m.root, '[part="submit-button"]').click();
      await reach(m.el, 'awaiting-redirect');
      m.client.emit(payment('redirect-ready', 2, { authorizationUrl: 'https://pay.example:8443/authorize/1?t=x' }));
      await reach(m.el, 'redirecting');
      expect(text(m.root)).to.contain(expected);
      expect(m.navigations).to.deep.equal(['https://pay.example:8443/authorize/1?t=x']);
      await expect(m.el).to.be.accessible();
    });
  }
});
