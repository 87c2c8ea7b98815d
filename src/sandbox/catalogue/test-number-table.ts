/**
 * The test numbers as a payer meets them (a push on the phone, a payment code, an approval page)
 * and how each ends, for the start banners (`momo-checkout sandbox`, `momo-checkout serve
 * --sandbox`) and docs/sandbox.md: the service's workflow names (`provider_auth`, ...) mean
 * nothing to someone trying the checkout.
 */
import { SANDBOX_OTP } from './catalogue.js';
import { testNumbers } from './test-numbers.js';
import type { Outcome, Workflow } from '../types.js';

export const payerSees: Record<Workflow, string> = {
  provider_auth: 'push on the phone',
  pre_authorized: `payment code (${SANDBOX_OTP})`,
  redirect_url: 'approval page',
};

export const howItEnds: Record<Outcome, string> = {
  approve: 'paid',
  decline: 'declined',
  'no-answer': 'no answer (stays pending)',
};

/** One line per test number: number, country, operator, what the payer sees, how it ends. */
export function testNumberLines(indent = '    '): string[] {
  return testNumbers.map(
    (entry) => `${indent}${entry.phoneNumber.padEnd(15)} ${entry.country}  ${entry.operatorCode.padEnd(8)} ${payerSees[entry.workflow].padEnd(24)} ${howItEnds[entry.outcome]}`,
  );
}

/** The approval page: any number of a country with the overlay wallet, when the payer picks it. */
export const approvalPageNote = 'Approval page: choose "Pay with Wallet" in the checkout (numbers of Benin, Côte d\'Ivoire and Senegal, e.g. +2290196000001); the page it opens approves or declines.';
