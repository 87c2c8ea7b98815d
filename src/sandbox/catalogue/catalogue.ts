/**
 * The sandbox's invented but realistic catalogue: countries, operators, corridors (one per
 * operator and currency, §2.1 Bounds), number prefixes and fee rates. Data only; resolve.ts reads it.
 */
import type { Workflow } from '../types.js';

export interface CurrencyInfo {
  code: string;
  decimalPlaces: number;
}

/** §2.1: XOF and XAF have 0 decimals; CDF and USD have 2. */
export const currencies: Record<string, CurrencyInfo> = {
  XOF: { code: 'XOF', decimalPlaces: 0 },
  XAF: { code: 'XAF', decimalPlaces: 0 },
  CDF: { code: 'CDF', decimalPlaces: 2 },
  USD: { code: 'USD', decimalPlaces: 2 },
};

/** One (operator, currency) pair: bounds are per pair (§2.1), so an operator may have several. */
export interface CorridorDef {
  currencyCode: string;
  /** Canonical decimal strings in the major unit. */
  minAmountMajor: string;
  /** `null`: no ceiling (§2.1). */
  maxAmountMajor: string | null;
}

export interface OperatorDef {
  code: string;
  name: string;
  /** Display hint (§2.7); the pay-in resolves the real one from the number and the amount. */
  workflow: Workflow;
  /**
   * Quirk (§4.1: "resolved from the full number and the amount"): above this amount the operator
   * wants a payer-generated code instead of a push, so the hint and the real workflow differ.
   */
  preAuthorizedAbove?: string;
  /** §2.7: may be empty; the checkout then shows its own fallback. */
  instructions: string;
  /** National-number prefixes (after the country calling code) this operator serves. */
  prefixes: string[];
  corridors: CorridorDef[];
  /** Fee rates in basis points (§2.6: feeProvider + feePlatform = feeTotal). */
  providerFeeBp: number;
  platformFeeBp: number;
  /** Logo colour (the sandbox draws its own logos). */
  colour: string;
}

export interface CountryDef {
  code: string;
  name: string;
  dialCode: string;
  /** Digits after the calling code. */
  nationalLength: number;
  operators: OperatorDef[];
  /** The overlay wallet (§2.3 operatorCode), when the country has it. */
  wallet?: OperatorDef;
}

const range = (from: number, to: number, prefix = ''): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

function wallet(currencyCode: string, max: string | null): OperatorDef {
  return {
    code: 'wallet',
    name: 'Wallet',
    workflow: 'redirect_url',
    instructions: '',
    prefixes: [],
    corridors: [{ currencyCode, minAmountMajor: '100', maxAmountMajor: max }],
    providerFeeBp: 100,
    platformFeeBp: 50,
    colour: '#1dc8ff',
  };
}

export const countries: CountryDef[] = [
  {
    code: 'BJ',
    name: 'Benin',
    dialCode: '+229',
    // Benin's 2024 plan: 10 national digits, mobiles start with 01.
    nationalLength: 10,
    operators: [
      {
        code: 'mtn',
        name: 'MTN MoMo',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['0196', '0197', '0161', '0162', '0166', '0167', '0169', '0190', '0191', '0151', '0152', '0153', '0154', '0156', '0157', '0159'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: '2000000' }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ffcc00',
      },
      {
        code: 'moov',
        name: 'Moov Money',
        workflow: 'pre_authorized',
        instructions: 'Dial *145*4# on your Moov phone to generate a payment code, then type it here.',
        prefixes: ['0194', '0195', '0198', '0199', '0160', '0163', '0164', '0165', '0168', '0155', '0158'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '200', maxAmountMajor: null }],
        providerFeeBp: 175,
        platformFeeBp: 50,
        colour: '#0066b3',
      },
      {
        code: 'celtiis',
        name: 'Celtiis Cash',
        workflow: 'pre_authorized',
        // §2.7: sometimes empty; the checkout must show its own fallback.
        instructions: '',
        prefixes: range(40, 49, '01'),
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: null }],
        providerFeeBp: 100,
        platformFeeBp: 50,
        colour: '#e30613',
      },
    ],
    wallet: wallet('XOF', '2000000'),
  },
  {
    code: 'CI',
    name: "Côte d'Ivoire",
    dialCode: '+225',
    nationalLength: 10,
    operators: [
      {
        code: 'orange',
        name: 'Orange Money',
        workflow: 'pre_authorized',
        instructions: 'Dial #144*82# on your Orange phone to get a payment code, then type it here.',
        prefixes: ['07'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: '1500000' }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ff7900',
      },
      {
        code: 'mtn',
        name: 'MTN MoMo',
        workflow: 'provider_auth',
        preAuthorizedAbove: '500000',
        instructions: 'For amounts over 500 000 XOF, dial *133# and choose "Payment code", then type the code here.',
        prefixes: ['05'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: '1000000' }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ffcc00',
      },
      {
        code: 'moov',
        name: 'Moov Money',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['01'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: null }],
        providerFeeBp: 175,
        platformFeeBp: 50,
        colour: '#0066b3',
      },
    ],
    wallet: wallet('XOF', '1500000'),
  },
  {
    code: 'SN',
    name: 'Senegal',
    dialCode: '+221',
    nationalLength: 9,
    operators: [
      {
        code: 'orange',
        name: 'Orange Money',
        workflow: 'pre_authorized',
        instructions: 'Dial #144#391# on your Orange phone to generate a payment code, then type it here.',
        prefixes: ['77', '78'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: '2000000' }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ff7900',
      },
      {
        code: 'free',
        name: 'Free Money',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['76'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: '1000000' }],
        providerFeeBp: 100,
        platformFeeBp: 50,
        colour: '#cd1e25',
      },
      {
        code: 'expresso',
        name: 'E-Money',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['70'],
        corridors: [{ currencyCode: 'XOF', minAmountMajor: '100', maxAmountMajor: null }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#00a650',
      },
    ],
    wallet: wallet('XOF', null),
  },
  {
    code: 'CM',
    name: 'Cameroon',
    dialCode: '+237',
    nationalLength: 9,
    operators: [
      {
        code: 'mtn',
        name: 'MTN MoMo',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['67', '650', '651', '652', '653', '654', '680', '681', '682', '683'],
        corridors: [{ currencyCode: 'XAF', minAmountMajor: '100', maxAmountMajor: '1000000' }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ffcc00',
      },
      {
        code: 'orange',
        name: 'Orange Money',
        workflow: 'pre_authorized',
        instructions: 'Dial #150*4*4# on your Orange phone to generate a payment code, then type it here.',
        prefixes: ['69', '655', '656', '657', '658', '659'],
        corridors: [{ currencyCode: 'XAF', minAmountMajor: '100', maxAmountMajor: null }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ff7900',
      },
    ],
  },
  {
    code: 'CD',
    name: 'DR Congo',
    dialCode: '+243',
    nationalLength: 9,
    operators: [
      {
        code: 'vodacom',
        name: 'Vodacom M-Pesa',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['81', '82', '83'],
        // One operator, two currencies: it appears twice in corridors with its own bounds (§2.1).
        corridors: [
          { currencyCode: 'CDF', minAmountMajor: '500', maxAmountMajor: '5000000' },
          { currencyCode: 'USD', minAmountMajor: '0.5', maxAmountMajor: '2500' },
        ],
        providerFeeBp: 200,
        platformFeeBp: 50,
        colour: '#e60000',
      },
      {
        code: 'orange',
        name: 'Orange Money',
        workflow: 'pre_authorized',
        instructions: 'Dial *144# on your Orange phone, choose "Payment code", then type the code here.',
        prefixes: ['84', '85', '89'],
        corridors: [{ currencyCode: 'CDF', minAmountMajor: '500', maxAmountMajor: null }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ff7900',
      },
      {
        code: 'airtel',
        name: 'Airtel Money',
        workflow: 'provider_auth',
        instructions: '',
        prefixes: ['97', '99'],
        corridors: [{ currencyCode: 'USD', minAmountMajor: '1', maxAmountMajor: null }],
        providerFeeBp: 150,
        platformFeeBp: 50,
        colour: '#ed1c24',
      },
    ],
  },
];

/** Starting balance per currency (major unit), credited by completed pay-ins, debited by pay-outs. */
export const startingBalances: Record<string, string> = {
  XOF: '1000000',
  XAF: '1000000',
  CDF: '1000000',
  USD: '1000',
};

/** The code that OTP (pre_authorized) test numbers accept; any other code is refused. */
export const SANDBOX_OTP = '123456';
