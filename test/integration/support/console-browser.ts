import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../../bin/local/console-build';
import type { TestRuntime } from './runtime';

/** Debian's Chromium (no browser download), as every console test drives it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The console built, Chromium started, and the runtime's admin signed in on `path` (the sign-in
 * page sends the visitor back there): what a console test starts from.
 */
export async function signedInConsole(rt: TestRuntime, path: string): Promise<{ browser: Browser; page: Page; consoleUrl: string }> {
  await ensureConsoleBuilt();
  const consoleUrl = `${rt.credentials.management_url}/console`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${consoleUrl}${path}`);
  await page.waitForURL(/\/console\/sign-in$/);
  await page.fill('input[name="username"]', rt.credentials.admin_username!);
  await page.fill('input[name="password"]', rt.credentials.admin_password!);
  await page.click('button[type="submit"]');
  await page.waitForURL(new RegExp(`/console${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  return { browser, page, consoleUrl };
}

/** axe-core's serious and critical WCAG 2 A/AA violations on the page (or frame) as it is now. */
export async function seriousViolations(frame: Frame | Page): Promise<{ id: string; impact: string; nodes: unknown[] }[]> {
  await frame.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await frame.evaluate<{ id: string; impact: string; nodes: unknown[] }[]>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target) })))",
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
