/**
 * Issue 23, "Done when": with lang="pt", "sw" and "ar" the element shows its texts in that language,
 * and with "ar" it lays out right-to-left while the number field stays left-to-right.
 */
import { expect } from '@open-wc/testing';
import { $, enterNumber, mount, payment, reach, text } from './fixtures.js';

const expected = {
  pt: { label: 'Número de dinheiro móvel', pay: 'Pagar', approve: 'Confirme o pagamento no seu telemóvel', country: 'Costa do Marfim' },
  sw: { label: 'Namba ya pesa ya simu', pay: 'Lipa', approve: 'Thibitisha malipo kwenye simu yako', country: 'Benin' },
  ar: { label: 'رقم المحفظة على الهاتف المحمول', pay: 'ادفع', approve: 'أكّد الدفع على هاتفك', country: 'بنين' },
} as const;

describe('<momo-checkout> in Portuguese, Swahili and Arabic', () => {
  for (const [lang, words] of Object.entries(expected)) {
    it(`shows every step's texts in ${lang}, country names through Intl`, async () => {
      const m = await mount({}, { lang });
      expect($(m.root, 'label[for="phone"]').textContent).to.equal(words.label);
      expect($(m.root, 'select#country').textContent).to.contain(words.country);
      await enterNumber(m);
      expect($(m.root, '[part="submit-button"]').textContent!.trim()).to.match(new RegExp(`^${words.pay} `));
      $(m.root, '[part="submit-button"]').click();
      await reach(m.el, 'awaiting-approval');
      expect($(m.root, 'h2').textContent).to.equal(words.approve);
      expect(text(m.root)).not.to.contain('Approve');
      await expect(m.el).to.be.accessible();
    });
  }

  it('lays Arabic out right to left, the number field and dial code left to right', async () => {
    const m = await mount({}, { lang: 'ar' });
    const base = $(m.root, '[part="base"]');
    expect(getComputedStyle(base).direction).to.equal('rtl');
    expect(base.getAttribute('lang')).to.equal('ar');
    const phone = $(m.root, 'input#phone');
    expect(getComputedStyle(phone).direction).to.equal('ltr');
    // The dial code comes before the number, on its left, as the number is read.
    const country = $(m.root, 'select#country').getBoundingClientRect();
    expect(country.left).to.be.below(phone.getBoundingClientRect().left);
    // Start-aligned texts sit on the right in Arabic.
    const label = $(m.root, 'label[for="phone"]').getBoundingClientRect();
    expect(base.getBoundingClientRect().right - label.right).to.be.below(40);
  });

  it('isolates the amount and the masked number inside Arabic sentences', async () => {
    const m = await mount({}, { lang: 'ar' });
    await enterNumber(m);
    expect($(m.root, '[part="submit-button"]').textContent).to.match(/ادفع \u2068.+\u2069/);
    expect($(m.root, '.amount-value').localName).to.equal('bdi');
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'awaiting-approval');
    expect(text(m.root)).to.contain('\u2066+229••••••00\u2069');
  });

  it('keeps English sentences as they were (no isolates) and left to right', async () => {
    const m = await mount({}, { lang: 'en' });
    expect(getComputedStyle($(m.root, '[part="base"]')).direction).to.equal('ltr');
    await enterNumber(m);
    expect($(m.root, '[part="submit-button"]').textContent).not.to.match(/[\u2066-\u2069]/);
  });

  it('translates the operator instructions’ fallback and the errors', async () => {
    const m = await mount({ pay: () => payment('needs-otp', 1, { workflow: 'pre_authorized' }) }, { lang: 'sw' });
    await enterNumber(m);
    $(m.root, '[part="submit-button"]').click();
    await reach(m.el, 'needs-otp');
    expect($(m.root, '[part="instructions"]').textContent).to.contain('Fungua menyu ya pesa ya simu');
    const failing = await mount({ checkout: new Error('down') }, { lang: 'pt', until: 'error' });
    expect(text(failing.root)).to.contain('Ocorreu um problema');
  });
});
