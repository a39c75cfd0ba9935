import { Decimal, type RoundingMode } from './decimal';

/**
 * ISO 4217 minor-unit exponents that differ from 2. Amounts are kept exact while computed and rounded
 * once, to the currency's minor unit, when they become a billed figure.
 */
const MINOR_UNIT_EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Decimal places of a currency's minor unit (2 unless ISO 4217 says otherwise). */
export function minorUnitExponent(currency: string): number {
  return MINOR_UNIT_EXPONENTS[currency.toUpperCase()] ?? 2;
}

/** An exact amount rounded to the currency's minor unit. */
export function roundToMinorUnit(amount: Decimal, currency: string, mode: RoundingMode = 'nearest'): Decimal {
  return amount.round(minorUnitExponent(currency), mode);
}

/** The amount in integer minor units (cents for USD), as providers such as Stripe expect. */
export function toMinorUnits(amount: Decimal, currency: string, mode: RoundingMode = 'nearest'): bigint {
  const exponent = minorUnitExponent(currency);
  return amount.round(exponent, mode).toScaledBigInt(exponent);
}

export { Decimal };
