import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { runBilling } from '../../functions/billing/run/billing-run';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { seriousViolations, signedInConsole } from './support/console-browser';
import { billingDeps, GRADUATED_TIERS, HOUR, numberedCalls, settledWindows, tieredPlan } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Completeness in the console alone (Debian's Chromium): a meter's grace period set in its form,
 * its completeness panel (grace and where it comes from, windows final / in grace, late corrections
 * after final, lateness measured on demand), reports showing their period's status and why each
 * version was made, and the customer's page showing its period in grace, then final with its late
 * correction.
 */
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('completeness in the console', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let channel: DeliveryChannel;
  let browser: Browser;
  let page: Page;
  let meterId: string;
  const { w1, w2, at } = settledWindows();
  const period = { current_period_start: new Date(w1.getTime() - HOUR).toISOString(), current_period_end: new Date(w2.getTime() + HOUR).toISOString() };
  const call = numberedCalls();
  const run = (now: Date) =>
    runBilling({
      now,
      ...billingDeps(rt, (ids) => new Map(ids.filter((id) => id === channel.id).map((id) => [id, channel])), { settings: { backfillMs: 8 * HOUR } }),
    });

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-completeness', { governanceRefreshMs: 0 });
    fake = await new FakeWebhookReceiver({ secrets: { grace: 'whsec_grace' } }).start();
    channel = { id: 'grace', name: 'grace', url: fake.channelUrl('grace'), status: 'active', headers: {}, secrets: ['whsec_grace'] };
    const planId = await tieredPlan(rt, 'grace plan', 'tiered_graduated', GRADUATED_TIERS);
    expect(
      (await rt.collect('/v1/subscriptions', { subscription_id: 'sub-late', company_id: 'late-co', status: 'active', items: [{ plan_id: planId }], ...period }))
        .status,
    ).toBe(201);
    const created = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'calls with grace',
        slug: 'calls-with-grace',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['grace'], custom_plan: { plan_id: planId } } } },
      },
    );
    expect(created.status).toBe(201);
    meterId = created.body._id;
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'late-co' }, at(w1, 5)), call({ company_id: 'late-co' }, at(w2, 5))])).status).toBe(201);
    await rt.waitUntilConsumed();
    ({ browser, page } = await signedInConsole(rt, `/billing/meters/${meterId}`));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await fake?.stop();
    await rt?.dispose();
  });

  it("sets a meter's grace period in its form and shows where its windows stand", async () => {
    const panel = page.getByRole('region', { name: 'Completeness' });
    await panel.getByText('6 minutes: the minimum, until enough events have been observed').waitFor();
    const form = page.getByRole('form', { name: 'Edit meter' });
    await form.getByLabel('Grace period (minutes)').fill('3');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Too small: expected number to be >=6', { exact: true }).waitFor();
    await form.getByLabel('Grace period (minutes)').fill('30');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/billing/meters');
    expect((await rt.management('GET', `/~/billing/meters/${meterId}`)).body.billing_plan.params.grace_period_minutes).toBe(30);

    // w1 is past its grace, w2 is not: the period is in grace.
    expect((await run(new Date(w2.getTime() + HOUR + 10 * 60_000))).errors).toEqual([]);
    await page.goto(`${rt.credentials.management_url}/console/billing/meters/${meterId}`);
    await panel.getByText("30 minutes: set on the meter's plan (grace_period_minutes)").waitFor();
    await panel.getByText(/the first is reported at/).waitFor();
    await panel.getByRole('button', { name: 'Measure lateness now' }).click();
    const lateness = panel.getByRole('table', { name: 'Lateness' });
    await lateness.waitFor();
    expect(await lateness.locator('tbody tr').filter({ hasText: '1 h–6 h' }).locator('td').allTextContents()).toEqual(['1 h–6 h', '2', '2']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'completeness.png'), fullPage: true });

    await page.goto(`${rt.credentials.management_url}/console/billing/reports?meter=${encodeURIComponent(meterId)}`);
    await page.getByRole('cell', { name: 'in grace' }).first().waitFor();
  }, 120_000);

  it('shows the period final once every window is reported, and a late event after final as a correction', async () => {
    expect((await run(new Date(w2.getTime() + HOUR + 31 * 60_000))).errors).toEqual([]);
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'late-co' }, at(w1, 20))])).status).toBe(201);
    await rt.waitUntilConsumed();
    expect((await run(new Date())).corrections).toBeGreaterThanOrEqual(1);
    expect(fake.totals()).toEqual({ 'sub-late': 3n });

    await page.goto(`${rt.credentials.management_url}/console/billing/meters/${meterId}`);
    const panel = page.getByRole('region', { name: 'Completeness' });
    await panel.getByText('1 correction, +1 usage').waitFor();

    const minted = await rt.management('POST', '/~/customer_tokens', {}, { company_id: 'late-co' });
    expect(minted.status).toBe(201);
    // The subscription's period has ended: the page shows the next one, and the ended one among the past periods.
    await page.goto(minted.body.usage_url);
    const invoice = page.getByRole('table').filter({ hasText: 'Past periods, as billed' }).locator('tbody tr').first();
    await invoice.waitFor();
    expect(await invoice.locator('td').nth(1).textContent()).toBe('final; 1 late correction after final');
    expect(await invoice.locator('td').nth(2).textContent()).toContain('(+1 late)');
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
