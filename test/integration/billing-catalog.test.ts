import { startTestRuntime, type TestRuntime } from './support/runtime';

describe('billing product catalog (/~/billing/catalog/plans, /prices)', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('catalog');
  });
  afterAll(() => rt?.dispose());

  const createPlan = async (body: Record<string, unknown>) => rt.management('POST', '/~/billing/catalog/plans', {}, body);

  it('creates a plan and tiered prices, and computes nothing from floats', async () => {
    const plan = await createPlan({ name: 'Pro', provider: 'custom', unit: 'API call', metadata: { tier: 'pro' } });
    expect(plan.status).toBe(201);
    expect(plan.body).toMatchObject({
      id: expect.any(String),
      name: 'Pro',
      provider: 'custom',
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(plan.body).not.toHaveProperty('_id');

    const price = await rt.management(
      'POST',
      '/~/billing/catalog/prices',
      {},
      {
        name: 'Pro calls',
        plan_id: plan.body.id,
        provider: 'custom',
        currency: 'USD',
        pricing_model: 'tiered',
        tiers: [
          { up_to: 1000, unit_price_in_decimal: '0.01' },
          { up_to: 'inf', unit_price_in_decimal: '0.005', flat_price_in_decimal: '2' },
        ],
      },
    );
    expect(price.status).toBe(201);
    expect(price.body).toMatchObject({ plan_id: plan.body.id, pricing_model: 'graduated', currency: 'usd' });

    const withPrices = await rt.management('GET', `/~/billing/catalog/plans/${plan.body.id}`);
    expect(withPrices.status).toBe(200);
    expect(withPrices.body.prices.map((p: { id: string }) => p.id)).toEqual([price.body.id]);

    const listed = await rt.management('GET', '/v1/~/billing/catalog/plans?includes=prices&provider=custom');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: plan.body.id, prices: [expect.objectContaining({ id: price.body.id })] })]);
    expect((await rt.management('GET', '/~/billing/catalog/plans?provider=stripe')).body).toEqual([]);
  });

  it("takes chosen ids (a provider's own), answers 409 naming id when one is taken, and frees a deleted one", async () => {
    const plan = await createPlan({ id: 'starter', name: 'Starter' });
    expect(plan.status).toBe(201);
    expect(plan.body).toMatchObject({ id: 'starter', name: 'Starter' });
    expect((await rt.management('GET', '/~/billing/catalog/plans/starter')).body).toMatchObject({ id: 'starter', prices: [] });
    const price = { id: 'price_1NxStarter', name: 'Starter calls', plan_id: 'starter', currency: 'usd', pricing_model: 'per_unit', price_in_decimal: '0.01' };
    expect((await rt.management('POST', '/~/billing/catalog/prices', {}, price)).body).toMatchObject({ id: 'price_1NxStarter', plan_id: 'starter' });

    const taken = await createPlan({ id: 'starter', name: 'Another' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details).toEqual([{ field: 'id', reason: 'is the id of another plan' }]);
    expect((await rt.management('POST', '/~/billing/catalog/prices', {}, price)).status).toBe(409);
    expect((await rt.management('GET', '/~/billing/catalog/plans/starter')).body.name).toBe('Starter');
    const shaped = await createPlan({ id: 'has space', name: 'Bad' });
    expect(shaped.status).toBe(400);
    expect(shaped.body.error.details).toEqual([expect.objectContaining({ field: 'id' })]);
    // An id cannot change on update (it is the item's address).
    expect((await rt.management('PUT', '/~/billing/catalog/plans/starter', {}, { id: 'other' })).status).toBe(409);

    expect((await rt.management('DELETE', '/~/billing/catalog/prices/price_1NxStarter')).status).toBe(204);
    expect((await rt.management('DELETE', '/~/billing/catalog/plans/starter')).status).toBe(204);
    expect((await rt.management('GET', '/~/billing/catalog/plans/starter')).status).toBe(410);
    expect((await createPlan({ id: 'starter', name: 'Starter again' })).status).toBe(201);
    expect((await rt.management('GET', '/~/billing/catalog/plans/starter')).body.name).toBe('Starter again');
  });

  it('refuses prices that are incomplete for their model or point at no plan, naming the field', async () => {
    const plan = await createPlan({ name: 'Basic' });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', plan_id: plan.body.id, currency: 'usd', pricing_model: 'per_unit' }, 'price_in_decimal'],
      [{ name: 'x', plan_id: plan.body.id, currency: 'usd', pricing_model: 'volume', tiers: [{ up_to: 10, unit_price_in_decimal: '1' }] }, 'tiers[0].up_to'],
      [{ name: 'x', plan_id: plan.body.id, currency: 'usd', pricing_model: 'per_unit', price_in_decimal: 0.1 }, 'price_in_decimal'],
      [{ name: 'x', plan_id: 'missing-plan', currency: 'usd', pricing_model: 'per_unit', price_in_decimal: '1' }, 'plan_id'],
      [{ name: 'x', plan_id: plan.body.id, provider: 'stripe', currency: 'usd', pricing_model: 'per_unit', price_in_decimal: '1' }, 'provider'],
      [{ name: 'x', plan_id: plan.body.id, currency: 'usd', pricing_model: 'per_unit', price_in_decimal: '1', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const answer = await rt.management('POST', '/~/billing/catalog/prices', {}, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details.map((d: { field: string }) => d.field).join(' ')).toContain(field);
    }
    expect((await rt.management('GET', `/~/billing/catalog/prices?plan_id=${plan.body.id}`)).body).toEqual([]);
  });

  it('updates with PUT (and POST), re-checking the merged price; plan_id cannot change', async () => {
    const plan = await createPlan({ name: 'Team' });
    const price = await rt.management(
      'POST',
      '/~/billing/catalog/prices',
      {},
      { name: 'p', plan_id: plan.body.id, currency: 'eur', pricing_model: 'per_unit', price_in_decimal: '0.5' },
    );
    const updated = await rt.management('PUT', `/~/billing/catalog/prices/${price.body.id}`, {}, { ...price.body, price_in_decimal: '0.25' });
    expect(updated.status).toBe(200);
    expect(updated.body.price_in_decimal).toBe('0.25');
    // Switching to a tiered model without tiers leaves the price unusable: refused.
    const bad = await rt.management('POST', `/~/billing/catalog/prices/${price.body.id}`, {}, { pricing_model: 'volume' });
    expect(bad.status).toBe(400);
    const moved = await rt.management('PUT', `/~/billing/catalog/prices/${price.body.id}`, {}, { plan_id: 'other' });
    expect(moved.status).toBe(409);
    expect(moved.body.error.details[0].field).toBe('plan_id');
  });

  it('keeps a plan while it has prices; deleted items answer 410', async () => {
    const plan = await createPlan({ name: 'Legacy' });
    const price = await rt.management(
      'POST',
      '/~/billing/catalog/prices',
      {},
      {
        name: 'p',
        plan_id: plan.body.id,
        currency: 'jpy',
        pricing_model: 'package',
        price_in_decimal: '100',
        transform_quantity: { divide_by: 1000, round: 'up' },
      },
    );
    expect(price.status).toBe(201);
    expect((await rt.management('DELETE', `/~/billing/catalog/plans/${plan.body.id}`)).status).toBe(400);
    expect((await rt.management('DELETE', `/~/billing/catalog/prices/${price.body.id}`)).status).toBe(204);
    expect((await rt.management('DELETE', `/~/billing/catalog/plans/${plan.body.id}`)).status).toBe(204);
    expect((await rt.management('GET', `/~/billing/catalog/plans/${plan.body.id}`)).status).toBe(410);
    expect((await rt.management('GET', '/~/billing/catalog/plans/0123456789abcdef01234567')).status).toBe(404);
  });
});
