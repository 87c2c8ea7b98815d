/**
 * The words of a payment link's page (link-page-html.ts), in every language of the element's list
 * (contract/languages.ts: a language added there asks for its words here), and the payer's language:
 * `?lang=` first, then the browser's `Accept-Language`, then English.
 */
import { firstSpoken, languageCodes, type LanguageCode } from '../../contract/languages.js';

export type LinkPageLanguage = LanguageCode;

export interface LinkPageText {
  pay: (shop: string) => string;
  amountLabel: (currency: string) => string;
  bounds: (min: string, max: string) => string;
  continue: string;
  gone: Record<'closed' | 'expired' | 'used-up' | 'unknown', string>;
  goneHint: (shop: string) => string;
  /** The service could take no payment of this amount (below every operator's minimum, a currency not served). */
  notPayable: (shop: string) => string;
}

export const linkPageText: Record<LinkPageLanguage, LinkPageText> = {
  en: {
    pay: (shop) => `Pay ${shop}`,
    amountLabel: (currency) => `Amount (${currency})`,
    bounds: (min, max) => `From ${min} to ${max}.`,
    continue: 'Continue',
    gone: { closed: 'This payment link is closed.', expired: 'This payment link has expired.', 'used-up': 'This payment link has already been used.', unknown: 'This payment link does not exist.' },
    goneHint: (shop) => `Nothing was charged. Ask ${shop} for a new link.`,
    notPayable: (shop) => `This amount cannot be paid by mobile money. Nothing was charged: contact ${shop}.`,
  },
  fr: {
    pay: (shop) => `Payer ${shop}`,
    amountLabel: (currency) => `Montant (${currency})`,
    bounds: (min, max) => `De ${min} à ${max}.`,
    continue: 'Continuer',
    gone: { closed: 'Ce lien de paiement est fermé.', expired: 'Ce lien de paiement a expiré.', 'used-up': 'Ce lien de paiement a déjà été utilisé.', unknown: "Ce lien de paiement n'existe pas." },
    goneHint: (shop) => `Rien n'a été débité. Demandez un nouveau lien à ${shop}.`,
    notPayable: (shop) => `Ce montant ne peut pas être payé par mobile money. Rien n'a été débité : contactez ${shop}.`,
  },
  pt: {
    pay: (shop) => `Pagar a ${shop}`,
    amountLabel: (currency) => `Montante (${currency})`,
    bounds: (min, max) => `De ${min} a ${max}.`,
    continue: 'Continuar',
    gone: { closed: 'Este link de pagamento está fechado.', expired: 'Este link de pagamento expirou.', 'used-up': 'Este link de pagamento já foi usado.', unknown: 'Este link de pagamento não existe.' },
    goneHint: (shop) => `Nada foi cobrado. Peça um novo link a ${shop}.`,
    notPayable: (shop) => `Este montante não pode ser pago por mobile money. Nada foi cobrado: contacte ${shop}.`,
  },
  sw: {
    pay: (shop) => `Lipa ${shop}`,
    amountLabel: (currency) => `Kiasi (${currency})`,
    bounds: (min, max) => `Kuanzia ${min} hadi ${max}.`,
    continue: 'Endelea',
    gone: { closed: 'Kiungo hiki cha malipo kimefungwa.', expired: 'Muda wa kiungo hiki cha malipo umekwisha.', 'used-up': 'Kiungo hiki cha malipo kimeshatumika.', unknown: 'Kiungo hiki cha malipo hakipo.' },
    goneHint: (shop) => `Hakuna kilichotozwa. Omba ${shop} kiungo kipya.`,
    notPayable: (shop) => `Kiasi hiki hakiwezi kulipwa kwa pesa ya simu. Hakuna kilichotozwa: wasiliana na ${shop}.`,
  },
  ar: {
    pay: (shop) => `ادفع إلى ${shop}`,
    amountLabel: (currency) => `المبلغ (${currency})`,
    bounds: (min, max) => `من ${min} إلى ${max}.`,
    continue: 'متابعة',
    gone: { closed: 'رابط الدفع هذا مغلق.', expired: 'انتهت صلاحية رابط الدفع هذا.', 'used-up': 'استُخدم رابط الدفع هذا من قبل.', unknown: 'رابط الدفع هذا غير موجود.' },
    goneHint: (shop) => `لم يُخصم أي مبلغ. اطلب من ${shop} رابطًا جديدًا.`,
    notPayable: (shop) => `لا يمكن دفع هذا المبلغ بالمحفظة المتنقلة. لم يُخصم أي مبلغ: تواصل مع ${shop}.`,
  },
};

/** The payer's language: `?lang=`, else the first of `Accept-Language` the page speaks, else English (by primary subtag: `frr` is not French). */
export function linkPageLanguageOf(request: Request): LinkPageLanguage {
  const asked = new URL(request.url).searchParams.get('lang') ?? '';
  return firstSpoken(languageCodes, [asked, ...(request.headers.get('accept-language') ?? '').split(',')]);
}
