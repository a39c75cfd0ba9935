import * as z from 'zod';
import { ChosenId } from '../resources/resource-id';
import { Decimal } from '../../values/decimal';

/**
 * The service's own product catalog (spec "Price and plan objects"): plans and their prices, used for
 * webhook and custom plans and to compute each billing report's `amount`. Money is decimal text
 * (`"0.0025"`), never a float.
 */

// The documents state a plain form (up to 30 digits each side); exponents (`1e-4`) are read too.
export const DecimalText = z
  .string()
  .refine(Decimal.isDecimalText, { message: 'must be a decimal number as text, e.g. "0.0025"' })
  .meta({ pattern: '^[+-]?[0-9]{1,30}([.][0-9]{1,30})?$' });
// zod runs every refinement, also after the one before failed: a text that is no decimal is that one's issue only.
const NonNegativeDecimalText = DecimalText.refine((text) => !Decimal.isDecimalText(text) || !Decimal.from(text).isNegative(), {
  message: 'must not be negative',
}).meta({ pattern: '^[+]?[0-9]{1,30}([.][0-9]{1,30})?$' });

/** Accepted pricing models; the aliases are the names other billing systems use for the same thing. */
export const PRICING_MODEL_ALIASES = {
  per_unit: 'per_unit',
  standard: 'per_unit',
  package: 'package',
  volume: 'volume',
  tiered_volume: 'volume',
  graduated: 'graduated',
  tiered: 'graduated',
  tiered_graduated: 'graduated',
} as const;
export const PricingModel = z.enum(Object.keys(PRICING_MODEL_ALIASES) as [keyof typeof PRICING_MODEL_ALIASES, ...(keyof typeof PRICING_MODEL_ALIASES)[]]);
export type PricingModel = (typeof PRICING_MODEL_ALIASES)[keyof typeof PRICING_MODEL_ALIASES];

export const TransformQuantity = z
  .object({
    divide_by: z.number().int().positive(),
    /** How a fractional number of packages is billed: `up` (a started package counts) or `down`. */
    round: z.enum(['up', 'down']),
  })
  .strict();

export const PriceTier = z
  .object({
    /** The last unit this tier covers (inclusive), or `"inf"` for the open-ended last tier. */
    up_to: z.union([z.number().int().positive(), z.literal('inf')]),
    unit_price_in_decimal: NonNegativeDecimalText.optional(),
    flat_price_in_decimal: NonNegativeDecimalText.optional(),
  })
  .strict();
export type PriceTier = z.infer<typeof PriceTier>;

const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code')
  .transform((c) => c.toLowerCase());

const ProviderName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, 'must be lower-case letters, digits, - or _');
const CatalogStatus = z.enum(['active', 'inactive', 'archived']);

/** A plan of the catalog (spec "Price and plan objects"); its prices refer to it by `plan_id`. */
export const PlanInput = z.strictObject({
  id: ChosenId.optional(),
  name: z.string().min(1).max(200),
  provider: ProviderName.default('custom'),
  description: z.string().max(2000).optional(),
  status: CatalogStatus.default('active'),
  product_id: z.string().min(1).max(256).optional(),
  metadata: z.record(z.string().min(1), z.string()).optional(),
  unit: z.string().max(100).optional(),
});
export type PlanInput = z.infer<typeof PlanInput>;

/** A plan update: every field optional; `provider` cannot change (its prices belong to that provider). */
export const PlanUpdate = PlanInput.partial().extend({ provider: ProviderName.optional() });
export type PlanUpdate = z.infer<typeof PlanUpdate>;

export const PriceFields = z
  .object({
    id: ChosenId.optional(),
    name: z.string().min(1).max(200),
    provider: ProviderName.default('custom'),
    plan_id: z.string().min(1).max(256),
    status: CatalogStatus.default('active'),
    pricing_model: PricingModel.transform((m) => PRICING_MODEL_ALIASES[m]),
    tax_behavior: z.enum(['inclusive', 'exclusive', 'unspecified']).optional(),
    currency: currencyCode,
    unit: z.string().max(100).optional(),
    usage_aggregator: z.enum(['sum', 'last', 'max']).optional(),
    period_units: z.enum(['d', 'w', 'M', 'y']).optional(),
    period: z.number().int().positive().optional(),
    price_in_decimal: NonNegativeDecimalText.optional(),
    metadata: z.record(z.string().min(1), z.string()).optional(),
    transform_quantity: TransformQuantity.optional(),
    tiers: z.array(PriceTier).min(1).max(100).optional(),
  })
  .strict();

/** A price as created; the refinements say which fields each pricing model needs. */
export const PriceInput = PriceFields.superRefine(checkPricingModel);
export type PriceInput = z.infer<typeof PriceInput>;

/**
 * A price update replaces what it names; the merged price is checked again as a whole (see
 * functions/billing/catalog), so a model change must bring the fields the new model needs.
 */
export const PriceUpdate = PriceFields.partial();
export type PriceUpdate = z.infer<typeof PriceUpdate>;

function checkPricingModel(price: z.infer<typeof PriceFields>, ctx: z.RefinementCtx): void {
  const tiered = price.pricing_model === 'volume' || price.pricing_model === 'graduated';
  if (tiered) {
    if (!price.tiers) {
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: `is required for the ${price.pricing_model} pricing model` });
      return;
    }
    let previous = 0;
    price.tiers.forEach((tier, i) => {
      const last = i === price.tiers!.length - 1;
      if (tier.up_to === 'inf' && !last) ctx.addIssue({ code: 'custom', path: ['tiers', i, 'up_to'], message: 'only the last tier may be "inf"' });
      if (last && tier.up_to !== 'inf')
        ctx.addIssue({ code: 'custom', path: ['tiers', i, 'up_to'], message: 'the last tier must be "inf" so every quantity has a price' });
      if (typeof tier.up_to === 'number') {
        if (tier.up_to <= previous) ctx.addIssue({ code: 'custom', path: ['tiers', i, 'up_to'], message: 'tiers must be in increasing up_to order' });
        previous = tier.up_to;
      }
      if (tier.unit_price_in_decimal === undefined && tier.flat_price_in_decimal === undefined) {
        ctx.addIssue({ code: 'custom', path: ['tiers', i], message: 'needs unit_price_in_decimal, flat_price_in_decimal or both' });
      }
    });
    if (price.price_in_decimal !== undefined)
      ctx.addIssue({ code: 'custom', path: ['price_in_decimal'], message: `is not used by the ${price.pricing_model} pricing model; use tiers` });
  } else {
    if (price.price_in_decimal === undefined)
      ctx.addIssue({ code: 'custom', path: ['price_in_decimal'], message: `is required for the ${price.pricing_model} pricing model` });
    if (price.tiers) ctx.addIssue({ code: 'custom', path: ['tiers'], message: `are only used by the volume and graduated pricing models` });
    if (price.pricing_model === 'package' && !price.transform_quantity) {
      ctx.addIssue({ code: 'custom', path: ['transform_quantity'], message: 'is required for the package pricing model (divide_by is the package size)' });
    }
  }
}

/** What a price computation needs of a price. */
export type PriceTerms = Pick<PriceInput, 'pricing_model' | 'currency' | 'price_in_decimal' | 'transform_quantity' | 'tiers'>;
