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
  /** The page cannot be made now (the store does not answer, the element's files are missing): nothing about the link itself. */
  unavailable: string;
  unavailableHint: string;
  /** The service could take no payment of this amount (below every operator's minimum, a currency not served). */
  notPayable: (shop: string) => string;
  /** Why the amount a payer typed was refused (links/link-rules.ts `payerAmountOf`); `example` is 2500 or 12.50 by the currency's decimals. */
  amountProblem: {
    empty: string;
    digits: (example: string) => string;
    tooPrecise: (decimals: number) => string;
    outOfBounds: (min: string, max: string) => string;
  };
}

export const linkPageText: Record<LinkPageLanguage, LinkPageText> = {
  en: {
    pay: (shop) => `Pay ${shop}`,
    amountLabel: (currency) => `Amount (${currency})`,
    bounds: (min, max) => `From ${min} to ${max}.`,
    continue: 'Continue',
    gone: { closed: 'This payment link is closed.', expired: 'This payment link has expired.', 'used-up': 'This payment link has already been used.', unknown: 'This payment link does not exist.' },
    goneHint: (shop) => `Nothing was charged. Ask ${shop} for a new link.`,
    unavailable: 'This payment page cannot open right now.',
    unavailableHint: 'Nothing was charged. Try again in a few minutes.',
    notPayable: (shop) => `This amount cannot be paid by mobile money. Nothing was charged: contact ${shop}.`,
    amountProblem: {
      empty: 'Enter the amount you pay.',
      digits: (example) => `Write the amount in digits, such as ${example}.`,
      tooPrecise: (decimals) => (decimals === 0 ? 'This currency has no decimals: enter a whole amount.' : `Give at most ${decimals} decimals: the amount is never rounded.`),
      outOfBounds: (min, max) => `Enter an amount from ${min} to ${max}.`,
    },
  },
  fr: {
    pay: (shop) => `Payer ${shop}`,
    amountLabel: (currency) => `Montant (${currency})`,
    bounds: (min, max) => `De ${min} à ${max}.`,
    continue: 'Continuer',
    gone: { closed: 'Ce lien de paiement est fermé.', expired: 'Ce lien de paiement a expiré.', 'used-up': 'Ce lien de paiement a déjà été utilisé.', unknown: "Ce lien de paiement n'existe pas." },
    goneHint: (shop) => `Rien n'a été débité. Demandez un nouveau lien à ${shop}.`,
    unavailable: "Cette page de paiement ne peut pas s'ouvrir pour le moment.",
    unavailableHint: "Rien n'a été débité. Réessayez dans quelques minutes.",
    notPayable: (shop) => `Ce montant ne peut pas être payé par mobile money. Rien n'a été débité : contactez ${shop}.`,
    amountProblem: {
      empty: 'Saisissez le montant que vous payez.',
      digits: (example) => `Écrivez le montant en chiffres, par exemple ${example}.`,
      tooPrecise: (decimals) => (decimals === 0 ? "Cette monnaie n'a pas de décimales : saisissez un montant entier." : `Donnez au plus ${decimals} décimales : le montant n'est jamais arrondi.`),
      outOfBounds: (min, max) => `Saisissez un montant de ${min} à ${max}.`,
    },
  },
  pt: {
    pay: (shop) => `Pagar a ${shop}`,
    amountLabel: (currency) => `Montante (${currency})`,
    bounds: (min, max) => `De ${min} a ${max}.`,
    continue: 'Continuar',
    gone: { closed: 'Este link de pagamento está fechado.', expired: 'Este link de pagamento expirou.', 'used-up': 'Este link de pagamento já foi usado.', unknown: 'Este link de pagamento não existe.' },
    goneHint: (shop) => `Nada foi cobrado. Peça um novo link a ${shop}.`,
    unavailable: 'Esta página de pagamento não pode abrir neste momento.',
    unavailableHint: 'Nada foi cobrado. Tente novamente dentro de alguns minutos.',
    notPayable: (shop) => `Este montante não pode ser pago por mobile money. Nada foi cobrado: contacte ${shop}.`,
    amountProblem: {
      empty: 'Introduza o montante que paga.',
      digits: (example) => `Escreva o montante em algarismos, por exemplo ${example}.`,
      tooPrecise: (decimals) => (decimals === 0 ? 'Esta moeda não tem casas decimais: introduza um montante inteiro.' : `Use no máximo ${decimals} casas decimais: o montante nunca é arredondado.`),
      outOfBounds: (min, max) => `Introduza um montante de ${min} a ${max}.`,
    },
  },
  sw: {
    pay: (shop) => `Lipa ${shop}`,
    amountLabel: (currency) => `Kiasi (${currency})`,
    bounds: (min, max) => `Kuanzia ${min} hadi ${max}.`,
    continue: 'Endelea',
    gone: { closed: 'Kiungo hiki cha malipo kimefungwa.', expired: 'Muda wa kiungo hiki cha malipo umekwisha.', 'used-up': 'Kiungo hiki cha malipo kimeshatumika.', unknown: 'Kiungo hiki cha malipo hakipo.' },
    goneHint: (shop) => `Hakuna kilichotozwa. Omba ${shop} kiungo kipya.`,
    unavailable: 'Ukurasa huu wa malipo hauwezi kufunguka kwa sasa.',
    unavailableHint: 'Hakuna kilichotozwa. Jaribu tena baada ya dakika chache.',
    notPayable: (shop) => `Kiasi hiki hakiwezi kulipwa kwa pesa ya simu. Hakuna kilichotozwa: wasiliana na ${shop}.`,
    amountProblem: {
      empty: 'Weka kiasi unacholipa.',
      digits: (example) => `Andika kiasi kwa tarakimu, kwa mfano ${example}.`,
      tooPrecise: (decimals) => (decimals === 0 ? 'Sarafu hii haina desimali: weka kiasi kamili.' : `Tumia desimali zisizozidi ${decimals}: kiasi hakizungushwi kamwe.`),
      outOfBounds: (min, max) => `Weka kiasi kuanzia ${min} hadi ${max}.`,
    },
  },
  ar: {
    pay: (shop) => `ادفع إلى ${shop}`,
    amountLabel: (currency) => `المبلغ (${currency})`,
    bounds: (min, max) => `من ${min} إلى ${max}.`,
    continue: 'متابعة',
    gone: { closed: 'رابط الدفع هذا مغلق.', expired: 'انتهت صلاحية رابط الدفع هذا.', 'used-up': 'استُخدم رابط الدفع هذا من قبل.', unknown: 'رابط الدفع هذا غير موجود.' },
    goneHint: (shop) => `لم يُخصم أي مبلغ. اطلب من ${shop} رابطًا جديدًا.`,
    unavailable: 'لا يمكن فتح صفحة الدفع هذه الآن.',
    unavailableHint: 'لم يُخصم أي مبلغ. حاول مرة أخرى بعد بضع دقائق.',
    notPayable: (shop) => `لا يمكن دفع هذا المبلغ بالمحفظة المتنقلة. لم يُخصم أي مبلغ: تواصل مع ${shop}.`,
    amountProblem: {
      empty: 'أدخل المبلغ الذي تدفعه.',
      digits: (example) => `اكتب المبلغ بالأرقام، مثل ${example}.`,
      tooPrecise: (decimals) => (decimals === 0 ? 'لا تحتوي هذه العملة على كسور عشرية: أدخل مبلغًا صحيحًا.' : `استخدم ${decimals} منازل عشرية على الأكثر: لا يُقرَّب المبلغ أبدًا.`),
      outOfBounds: (min, max) => `أدخل مبلغًا من ${min} إلى ${max}.`,
    },
  },
};

/** The payer's language: `?lang=`, else the first of `Accept-Language` the page speaks, else English (by primary subtag: `frr` is not French). */
export function linkPageLanguageOf(request: Request): LinkPageLanguage {
  const asked = new URL(request.url).searchParams.get('lang') ?? '';
  return firstSpoken(languageCodes, [asked, ...(request.headers.get('accept-language') ?? '').split(',')]);
}
