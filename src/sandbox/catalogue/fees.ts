/**
 * Fee estimate (§2.6, §2.1 Fees): fees are deducted from the collection, never added on top.
 * Each component is rounded half-up to the currency's decimals, in minor units with BigInt so
 * no float ever touches money.
 */
import { fromMinorUnits, toMinorUnits } from '../../contract/money.js';
import type { OperatorDef } from './catalogue.js';

export interface FeeBreakdown {
  feeProviderMinor: bigint;
  feePlatformMinor: bigint;
  feeTotalMinor: bigint;
  amountCreditedMinor: bigint;
}

const BASIS_POINTS = 10_000n;

function basisPointsHalfUp(amountMinor: bigint, basisPoints: number): bigint {
  return (amountMinor * BigInt(basisPoints) + BASIS_POINTS / 2n) / BASIS_POINTS;
}

export function computeFees(operator: OperatorDef, amount: string, decimalPlaces: number): FeeBreakdown {
  const amountMinor = toMinorUnits(amount, decimalPlaces);
  const feeProviderMinor = basisPointsHalfUp(amountMinor, operator.providerFeeBp);
  const feePlatformMinor = basisPointsHalfUp(amountMinor, operator.platformFeeBp);
  const feeTotalMinor = feeProviderMinor + feePlatformMinor;
  return { feeProviderMinor, feePlatformMinor, feeTotalMinor, amountCreditedMinor: amountMinor - feeTotalMinor };
}

/** §2.6 numbers: the canonical decimal text read as a JSON number (exact for these magnitudes). */
export function minorToNumber(minor: bigint, decimalPlaces: number): number {
  return Number(fromMinorUnits(minor, decimalPlaces));
}
