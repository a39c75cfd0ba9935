import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../bin/local/console-build';
import type { CustomerStatement } from '../../schemas/billing/customer-statement';
import type { FakeWebhookReceiver } from '../support/fake-providers';
import { CHROMIUM, seriousViolations } from './support/console-browser';
import { closedPeriodOnGraduatedPrice } from './support/simulation-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * A customer checks its bill on its usage page (Debian's Chromium): a past period's statement shows
 * what it was billed, its events download as the CSV the statement signed, the check says verified;
 * after a void the page shows version 2 and what changed, and version 1 checks as superseded.
 */
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('customer statements on the usage page', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let browser: Browser;
  let page: Page;
  let usageUrl: string;
  let closed: { current_period_start: string; current_period_end: string };
  let firstStatement: string;

  const openStatement = async () => {
    await page.goto(usageUrl);
    await page.getByRole('button', { name: 'Statement', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Statement', exact: true });
    await panel.getByRole('heading', { name: /^Statement, / }).waitFor();
    return panel;
  };

  beforeAll(async () => {
    await ensureConsoleBuilt();
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-customer-statements', { governanceRefreshMs: 0 });
    ({ receiver: fake, period: closed } = await closedPeriodOnGraduatedPrice(rt));
    const minted = await rt.management('POST', '/~/customer_tokens', {}, { company_id: 'co-large', expires_in: 3600 });
    usageUrl = minted.body.usage_url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await fake?.stop();
    await rt?.dispose();
  });

  it('shows a past period’s statement, downloads its events as signed, verifies it, and checks the files later', async () => {
    const panel = await openStatement();
    await panel.getByText('Version 1, issued').waitFor();
    const row = panel.getByRole('row', { name: /^calls/ });
    expect(await row.locator('td').allTextContents()).toEqual(['calls', '12', '12', expect.stringMatching(/2[.,]10/), expect.stringContaining('12')]);

    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download calls events' }).click();
    const csv = await readFile((await (await download).path())!, 'utf8');
    expect(csv.trimEnd().split('\n')).toHaveLength(13);
    const statement = (await downloadedStatement(panel)) as CustomerStatement;
    expect(createHash('sha256').update(csv).digest('hex')).toBe(statement.meters[0]!.events_digest);

    await panel.getByRole('button', { name: 'Check this statement' }).click();
    await panel
      .getByRole('status', { name: 'Check result' })
      .filter({ hasText: 'Verified: signature valid; 1 of 1 event lists match; newest version 1.' })
      .waitFor();

    // The files as the customer keeps them, checked later: the list as signed, and one with a line altered.
    firstStatement = JSON.stringify(statement, null, 2);
    const check = page.getByRole('region', { name: 'Check a downloaded statement' });
    await check.getByLabel('Statement (JSON)').setInputFiles({ name: 'statement.json', mimeType: 'application/json', buffer: Buffer.from(firstStatement) });
    await check.getByLabel('Event lists (CSV)').setInputFiles([
      { name: 'events.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
      { name: 'edited.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.replace(/,1\n$/, ',2\n')) },
    ]);
    await check.getByRole('button', { name: 'Check', exact: true }).click();
    const result = check.getByRole('status', { name: 'Check result' });
    await result.filter({ hasText: 'Verified: signature valid; 1 of 1 event lists match; newest version 1.' }).waitFor();
    await result.getByText(`events.csv: the event list of meter ${statement.meters[0]!.billing_meter_id}, as signed`).waitFor();
    await result.getByText('edited.csv: not an event list this statement signed').waitFor();
    // A statement edited by hand: its signature no longer holds.
    const edited = firstStatement.replace('"amount": "2.1"', '"amount": "1.1"');
    expect(edited).not.toBe(firstStatement);
    await check.getByLabel('Statement (JSON)').setInputFiles({ name: 'statement.json', mimeType: 'application/json', buffer: Buffer.from(edited) });
    await check.getByLabel('Event lists (CSV)').setInputFiles([]);
    await check.getByRole('button', { name: 'Check', exact: true }).click();
    await result.filter({ hasText: 'Not verified: signature invalid' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/customer-statement.png`, fullPage: true });
  });

  it('shows version 2 after a void, with what changed, and checks version 1 as superseded', async () => {
    const voided = await rt.management(
      'POST',
      '/~/events/voids',
      {},
      {
        reason: 'sent twice',
        query: { term: { company_id: 'co-large' } },
        from: closed.current_period_start,
        to: new Date(Date.parse(closed.current_period_start) + 3 * 3_600_000).toISOString(),
      },
    );
    expect(voided.status).toBe(201);
    const panel = await openStatement();
    await panel.getByText('Version 2, issued').waitFor();
    await panel.getByRole('heading', { name: 'Changed since version 1' }).waitFor();
    await panel.getByRole('listitem').filter({ hasText: 'calls: usage 12 → 0' }).waitFor();
    await panel.getByLabel('Version').selectOption('1');
    await panel.getByText('Version 1, issued').waitFor();
    await panel.getByRole('button', { name: 'Check this statement' }).click();
    const result = panel.getByRole('status', { name: 'Check result' });
    await result.filter({ hasText: 'Authentic, but superseded' }).waitFor();
    await result.getByText('version 2 has been issued since').waitFor();
    // The file kept from version 1, checked now: authentic, but no longer the statement of the period.
    const check = page.getByRole('region', { name: 'Check a downloaded statement' });
    await check.getByLabel('Statement (JSON)').setInputFiles({ name: 'statement.json', mimeType: 'application/json', buffer: Buffer.from(firstStatement) });
    await check.getByRole('button', { name: 'Check', exact: true }).click();
    await check.getByRole('status', { name: 'Check result' }).filter({ hasText: 'Authentic, but superseded' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

/** The statement as the panel's download gives it. */
async function downloadedStatement(panel: ReturnType<Page['getByRole']>): Promise<unknown> {
  const download = panel.page().waitForEvent('download');
  await panel.getByRole('button', { name: 'Download statement' }).click();
  return JSON.parse(await readFile((await (await download).path())!, 'utf8'));
}
