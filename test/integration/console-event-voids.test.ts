import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations, signedInConsole } from './support/console-browser';
import { HOUR, numberedCalls } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Voiding events in the console alone (Debian's Chromium): the event stream filtered to a faulty
 * release's calls, the void form counts them and voids them with a reason; they leave the stream,
 * come back under "Only voided" with a mark, and the audit log lists the void, links to its events
 * and downloads as CSV.
 */
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('voiding events in the console', () => {
  let rt: TestRuntime;
  let browser: Browser;
  let page: Page;
  const call = numberedCalls();

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-event-voids', { governanceRefreshMs: 0 });
    const at = (minutes: number) => new Date(Date.now() - 2 * HOUR + minutes * 60_000);
    const events = [
      ...[1, 2, 3].map((n) => call({ company_id: 'acme', metadata: { release: 'good' } }, at(n))),
      ...[4, 5].map((n) => call({ company_id: 'acme', metadata: { release: 'bad' } }, at(n))),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
    ({ browser, page } = await signedInConsole(rt, '/events'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await rt?.dispose();
  });

  it('counts the filtered events, voids them with a reason, and leaves them out of the stream', async () => {
    const filters = page.getByRole('form', { name: 'Event filters' });
    await filters.getByLabel('Query').fill('metadata.release:bad');
    await filters.getByRole('button', { name: 'Apply' }).click();
    const stream = page.getByRole('region', { name: 'Event stream' });
    await stream.getByText('2 events in range').waitFor();

    await page.getByText('Void the events these filters match…').click();
    const form = page.getByRole('form', { name: 'Void events' });
    await form.getByRole('status').filter({ hasText: '2 events match' }).waitFor();
    // No reason, no void.
    expect(await form.getByRole('button', { name: 'Void 2 events' }).isDisabled()).toBe(true);
    await form.getByLabel('Why (kept in the audit log)').fill('release bad sent each call twice');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Void 2 events' }).click();
    await form.getByRole('status').filter({ hasText: 'Voided 2 events' }).waitFor();
    await stream.getByText('No events in this range').waitFor();

    // Listed on request, marked.
    await filters.getByLabel('Voided events').selectOption('only');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await stream.getByText('2 events in range').waitFor();
    expect(await stream.getByText('voided', { exact: true }).count()).toBe(2);
    await page.screenshot({ path: `${SCREENSHOTS}/event-voids-stream.png`, fullPage: true });
  }, 60_000);

  it('lists the void in the audit log, with its events a click away and the whole log as CSV', async () => {
    await page.getByRole('link', { name: 'Voided events' }).click();
    const log = page.getByRole('table', { name: 'Voids' });
    const row = log.locator('tbody tr');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual(
      expect.arrayContaining(['release bad sent each call twice', expect.stringContaining('metadata.release:bad'), '2 of 2', 'completed']),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/event-voids-log.png`, fullPage: true });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile((await (await download).path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toContain('id,created_at,created_by,reason');
    expect(csv).toContain('release bad sent each call twice');

    await row.getByRole('link', { name: '2' }).click();
    const stream = page.getByRole('region', { name: 'Event stream' });
    await stream.getByText('2 events in range').waitFor();
    expect(await stream.getByText('voided', { exact: true }).count()).toBe(2);
  }, 60_000);

  it('replaces the filtered events with a corrected set pasted as JSON', async () => {
    await page.goto(`${rt.credentials.management_url}/console/events?q=${encodeURIComponent('metadata.release:good')}`);
    const stream = page.getByRole('region', { name: 'Event stream' });
    await stream.getByText('3 events in range').waitFor();
    await page.getByText('Void the events these filters match…').click();
    const form = page.getByRole('form', { name: 'Void events' });
    await form.getByRole('status').filter({ hasText: '3 events match' }).waitFor();
    await form.getByLabel('Why (kept in the audit log)').fill('three calls were one retried call');
    await form.getByLabel(/Send a corrected/).check();
    const fixed = { ...call({ company_id: 'acme', metadata: { release: 'fixed' } }, new Date(Date.now() - HOUR)), transaction_id: undefined };
    await form.getByLabel(/Corrected API calls/).fill('not json');
    await form.getByText('This is not JSON yet.').waitFor();
    await form.getByLabel(/Corrected API calls/).fill(JSON.stringify([fixed]));
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/event-voids-replace.png`, fullPage: true });
    await form.getByRole('button', { name: 'Replace 3 events with 1' }).click();
    await form.getByRole('status').filter({ hasText: 'Voided 3 events and sent 1 in their place' }).waitFor();
    await rt.waitUntilConsumed();
    await page.goto(`${rt.credentials.management_url}/console/events?q=${encodeURIComponent('metadata.release:fixed')}`);
    await stream.getByText('1 events in range').waitFor();
  }, 60_000);
});
