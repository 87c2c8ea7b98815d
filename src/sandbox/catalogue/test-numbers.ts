/**
 * Numbers with a scripted outcome. Every one is a valid mobile number for libphonenumber-js's max
 * metadata (a test holds this, assumptions.md §Phone). A number not listed here but with a known
 * prefix is approved.
 */
import { SANDBOX_OTP } from './catalogue.js';
import type { Outcome, TestNumber, Workflow } from '../types.js';

const OTP_NOTE = `OTP number: the operator accepts the code ${SANDBOX_OTP} only; any other code is refused (400) and nothing is created, so the payer can retry with the same orderId.`;

function trio(country: string, operatorCode: string, workflow: Workflow, base: string): TestNumber[] {
  const notes: Record<Outcome, string> = {
    approve: 'The payer approves: webhook `completed`.',
    decline: 'The payer declines: webhook `failed`.',
    'no-answer': 'The payer never answers: stays `pending` until control.settle (use it to test expiry).',
  };
  const outcomes: Outcome[] = ['approve', 'decline', 'no-answer'];
  return outcomes.map((outcome, index) => ({
    phoneNumber: `${base}${index + 1}`,
    country,
    operatorCode,
    workflow,
    outcome,
    note: workflow === 'pre_authorized' ? `${notes[outcome]} ${OTP_NOTE}` : notes[outcome],
  }));
}

export const testNumbers: readonly TestNumber[] = [
  ...trio('BJ', 'mtn', 'provider_auth', '+229019600000'),
  ...trio('BJ', 'moov', 'pre_authorized', '+229019400000'),
  {
    phoneNumber: '+2290140000001',
    country: 'BJ',
    operatorCode: 'celtiis',
    workflow: 'pre_authorized',
    outcome: 'approve',
    note: `Operator with EMPTY instructions: the checkout shows its fallback text. ${OTP_NOTE}`,
  },
  ...trio('CI', 'mtn', 'provider_auth', '+225050000000'),
  ...trio('CI', 'orange', 'pre_authorized', '+225070000000'),
  {
    phoneNumber: '+2250100000001',
    country: 'CI',
    operatorCode: 'moov',
    workflow: 'provider_auth',
    outcome: 'approve',
    note: 'Also holds an overlay-wallet account: send operatorCode "wallet" (and redirectUrls) to pay through the authorisation page.',
  },
  ...trio('SN', 'free', 'provider_auth', '+22176000000'),
  ...trio('SN', 'orange', 'pre_authorized', '+22177000000'),
  ...trio('CM', 'mtn', 'provider_auth', '+23767000000'),
  ...trio('CM', 'orange', 'pre_authorized', '+23769000000'),
  ...trio('CD', 'vodacom', 'provider_auth', '+24381000000').map((entry) => ({
    ...entry,
    note: `${entry.note} Serves CDF and USD (2 decimals each).`,
  })),
  ...trio('CD', 'orange', 'pre_authorized', '+24384000000'),
];

export function outcomeOf(phoneNumber: string): Outcome {
  return testNumbers.find((entry) => entry.phoneNumber === phoneNumber)?.outcome ?? 'approve';
}
