/**
 * Issue 32: Arabic amounts in Latin digits by default, whatever the engine's ICU would pick for
 * `ar`, and in the digits a shop asks for with the `digits` attribute.
 */
import { expect } from '@open-wc/testing';
import { numberLocale } from '../../src/element/digits.js';
import { $, enterNumber, mount } from './fixtures.js';

const arabicIndic = /[\u0660-\u0669]/;

describe('<momo-checkout> digits', () => {
  it('asks every engine for Latin digits by name (WebKit with ICU 72 writes Arabic-Indic for a bare "ar")', () => {
    expect(numberLocale('ar-EG', '')).to.equal('ar-EG-u-nu-latn');
    expect(numberLocale('fr-CI', 'latn')).to.equal('fr-CI-u-nu-latn');
    expect(numberLocale('ar', 'arab')).to.equal('ar-u-nu-arab');
  });

  it('writes an Arabic amount in Latin digits by default, in the amount row and the Pay button', async () => {
    const m = await mount({}, { lang: 'ar' });
    await enterNumber(m);
    const amount = $(m.root, '.amount-value').textContent!;
    expect(amount).to.contain('5,000');
    expect(amount).not.to.match(arabicIndic);
    expect($(m.root, '[part="submit-button"]').textContent).to.contain('5,000');
  });

  it('writes Arabic-Indic digits when the shop asks for them (digits="arab")', async () => {
    const m = await mount({}, { lang: 'ar' });
    m.el.setAttribute('digits', 'arab');
    await m.el.updateComplete;
    expect($(m.root, '.amount-value').textContent).to.contain('٥٬٠٠٠');
  });

  it('keeps a numbering system the lang names itself (lang="ar-u-nu-arab")', async () => {
    const m = await mount({}, { lang: 'ar-u-nu-arab' });
    expect($(m.root, '.amount-value').textContent).to.match(arabicIndic);
  });

  it('falls back to Latin digits for a name Intl refuses', async () => {
    const m = await mount({}, { lang: 'ar' });
    m.el.setAttribute('digits', 'not a system');
    await m.el.updateComplete;
    expect($(m.root, '.amount-value').textContent).to.contain('5,000');
  });
});
