import fc from 'fast-check';
import { signCustomerToken, verifyCustomerToken } from '../../../functions/customer-portal/access/customer-token';
import { openTemplate } from '../../../functions/customer-portal/templates/customer-templates';
import { standingOf } from '../../../functions/customer-portal/spend-caps/spend-cap-standing';
import { UnauthorizedError } from '../../../functions/shared/errors';
import type { CustomerUsage } from '../../../schemas/billing/customer-usage';
import type { CustomerClaims } from '../../../schemas/resources/customer-access';
import { SpendCapInput } from '../../../schemas/resources/spend-cap';

/** Customer tokens, what they open, and spend caps, without a network. */

const KEY = Buffer.alloc(32, 7);
const NOW_S = 1_900_000_000;
const claims = (fields: Partial<CustomerClaims> = {}): CustomerClaims => ({
  typ: 'customer',
  org_id: 'o1',
  app_id: 'a1',
  company_id: 'acme',
  values: { company_id: 'acme' },
  time_zone: 'UTC',
  iat_ms: NOW_S * 1000,
  exp: NOW_S + 3600,
  ...fields,
});

describe('customer tokens', () => {
  it('carry their claims, and any changed character of a token is refused with a 401 naming the token', () => {
    const token = signCustomerToken(claims(), KEY);
    expect(verifyCustomerToken(token, KEY, NOW_S)).toEqual(claims());
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }), (at, replacement) => {
        fc.pre(token[at] !== replacement);
        const tampered = token.slice(0, at) + replacement + token.slice(at + 1);
        expect(() => verifyCustomerToken(tampered, KEY, NOW_S)).toThrow(UnauthorizedError);
      }),
    );
  });

  it('are refused once expired, and under another key', () => {
    const token = signCustomerToken(claims(), KEY);
    expect(() => verifyCustomerToken(token, KEY, NOW_S + 3600)).toThrow('The customer token has expired');
    expect(() => verifyCustomerToken(token, Buffer.alloc(32, 8), NOW_S)).toThrow('The customer token has an invalid signature');
  });
});

describe('what a token opens', () => {
  const workspace = (dynamicFields: string[], fields: Record<string, unknown> = {}) => ({
    _id: 'w1',
    is_template: true,
    template: { dynamic_fields: dynamicFields, dynamic_time: false },
    chart: { from: '-7d', to: 'now' },
    ...fields,
  });
  const field = fc.constantFrom('company_id', 'user_id', 'subscription_id', 'metadata.plan', 'request.route');

  it("binds every dynamic field to the token's value, and opens nothing with a field left unbound", () => {
    fc.assert(
      fc.property(fc.uniqueArray(field, { minLength: 1, maxLength: 5 }), fc.dictionary(field, fc.string({ minLength: 1, maxLength: 8 })), (fields, values) => {
        const opened = openTemplate(claims({ values }), workspace(fields));
        if (fields.every((f) => values[f] !== undefined)) {
          expect(opened).toMatchObject({ required: fields.map((f) => ({ field: f, value: values[f] })), timeRanges: [{ from: '-7d', to: 'now' }] });
        } else expect(opened).toEqual({ refused: expect.stringContaining('the token binds no value to') });
      }),
    );
  });

  it('never opens a template without dynamic fields, a workspace that is no template, or one the token does not name', () => {
    expect(openTemplate(claims(), workspace([]))).toEqual({ refused: 'has no dynamic fields (it would show every customer the same data)' });
    expect(openTemplate(claims(), workspace(['company_id'], { is_template: false }))).toEqual({ refused: 'is not a template workspace' });
    expect(openTemplate(claims({ templates: ['w2'] }), workspace(['company_id']))).toEqual({ refused: 'is not a template this token opens' });
  });

  it("lets the customer pick the token's ranges only on a template whose time is dynamic", () => {
    const ranges = [{ from: '-30d', to: 'now' }];
    expect(
      openTemplate(claims({ time_ranges: ranges }), workspace(['company_id'], { template: { dynamic_fields: ['company_id'], dynamic_time: true } })),
    ).toMatchObject({
      timeRanges: ranges,
    });
    expect(openTemplate(claims({ time_ranges: ranges }), workspace(['company_id']))).toMatchObject({ timeRanges: [{ from: '-7d', to: 'now' }] });
  });
});

describe('spend caps', () => {
  const usage = (amount: string): CustomerUsage => ({
    company_id: 'acme',
    generated_at: '2027-03-15T12:00:00.000Z',
    subscriptions: [
      {
        subscription_id: 's1',
        status: 'active',
        period: { start: '2027-03-01T00:00:00.000Z', end: '2027-04-01T00:00:00.000Z', closed: false, status: 'open' },
      },
    ],
    meters: [],
    totals: [{ currency: 'usd', amount, estimated_amount: amount }],
    invoices: [],
  });
  const cap = { company_id: 'acme', budget: '100', currency: 'usd', warn_at_percent: 80, hard_cap: true, updated_at: '2027-03-15T00:00:00.000Z' };

  it('warn at their threshold and cap at the budget, exactly', () => {
    expect(standingOf(cap, usage('79.99'))).toMatchObject({
      spent: '79.99',
      used_percent: 79.99,
      warning: false,
      capped: false,
      period_end: '2027-04-01T00:00:00.000Z',
    });
    expect(standingOf(cap, usage('80'))).toMatchObject({ warning: true, capped: false });
    expect(standingOf(cap, usage('100'))).toMatchObject({ warning: true, capped: true });
    expect(standingOf({ ...cap, hard_cap: false }, usage('250'))).toMatchObject({ capped: false, used_percent: 250 });
    // A bill in another currency does not count against the cap.
    expect(standingOf({ ...cap, currency: 'eur' }, usage('250'))).toMatchObject({ spent: '0', capped: false });
  });

  it('take positive decimal budgets and 3-letter currencies, and name the field they refuse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 0, max: 99 }), (units, cents) => {
        const parsed = SpendCapInput.safeParse({ budget: `${units}.${String(cents).padStart(2, '0')}`, currency: 'EUR' });
        expect(parsed.success && parsed.data).toMatchObject({ currency: 'eur', hard_cap: false });
      }),
    );
    for (const budget of ['0', '0.00', '-5', '1e3', '12.3456789', ''])
      expect(SpendCapInput.safeParse({ budget, currency: 'usd' }).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['budget']);
    expect(SpendCapInput.safeParse({ budget: '5', currency: 'dollars' }).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['currency']);
  });
});
