/**
 * The administrator's Users List in Chromium (issue 57): names and roles in the list; a user's
 * plans granted, extended and revoked from the console, each only once confirmed; and the
 * training export with nothing consented says so instead of downloading an empty tar.
 * Screenshots at 1280 and 390 px are saved (tests/support/console.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  screenshot,
  signInThroughUi,
} from '../support/console.ts';
import { createUser } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

/** A day `days` from today, YYYY-MM-DD (UTC, the server's days). */
const day = (days: number): string =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!CHROMIUM_AVAILABLE)('the Users List in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let keeper: { id: number; email: string };

  beforeAll(async () => {
    const { startConsoleServer } = await import('../support/console.ts');
    server = await startConsoleServer({}, false);
    browser = await launchBrowser();
    keeper = await createUser(server, { locations: [], name: 'Ann Keeper', role: 'USER' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const adminPage = async (width = 1280): Promise<Page> => {
    const { page } = await newPage(browser, server.url, { width, height: 900 });
    await signInThroughUi(page, ADMIN.email, ADMIN.password);
    await page.goto('/users-list');
    await page.getByRole('table', { name: 'Users and products' }).waitFor();
    return page;
  };
  /** Screenshots at 1280 and 390 px, light and dark, of the screen as it is (dialogs open). */
  const shots = async (p: Page, name: string) => {
    for (const theme of ['light', 'dark'] as const) {
      await p.evaluate((t) => {
        document.body.classList.toggle('bp6-dark', t === 'dark');
        document.documentElement.dataset.theme = t;
      }, theme);
      for (const width of [1280, 390]) {
        await p.setViewportSize({ width, height: 900 });
        await screenshot(p, `${name}-${width}`);
      }
    }
    await p.setViewportSize({ width: 1280, height: 900 });
  };
  /** The keeper's grants in the database: what the console's actions changed. */
  const grants = () =>
    server.app
      .db('products')
      .where({ user_id: keeper.id })
      .orderBy('id')
      .select<Array<{ product_name: string; start_date: string; end_date: string }>>(
        'product_name',
        'start_date',
        'end_date',
      );

  it('lists each user with their name and role', async () => {
    const p = await adminPage();
    const row = p.getByRole('row').filter({ hasText: keeper.email });
    await expect
      .poll(() => row.getByRole('cell').allInnerTexts())
      .toEqual([keeper.email, 'Ann Keeper', 'USER', '—', '—', '—', 'Manage']);
    const admin = p.getByRole('row').filter({ hasText: ADMIN.email });
    expect(await admin.getByRole('cell').nth(2).innerText()).toBe('ADMIN');
    await shots(p, 'admin-users');
    await p.context().close();
  });

  it('grants, extends and revokes a plan, each once confirmed', async () => {
    const p = await adminPage();
    await p.getByRole('button', { name: `Manage plans of ${keeper.email}` }).click();
    const dialog = p.getByRole('dialog', { name: `Plans of Ann Keeper (${keeper.email})` });
    await dialog
      .getByText(`No products granted: ${keeper.email} is on the Free Forever plan.`)
      .waitFor();
    const confirmation = p.getByRole('alertdialog');

    // Grant: cancelled first, and nothing happens; then confirmed.
    const until = day(200);
    await dialog.getByLabel('Product').selectOption('Researcher');
    await dialog.getByLabel('Until (last day)').fill(until);
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await confirmation
      .getByText(`Grant Researcher to Ann Keeper (${keeper.email}) from today until ${until}?`)
      .waitFor();
    await shots(p, 'admin-grant-confirm');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    await confirmation.waitFor({ state: 'detached' });
    expect(await grants()).toEqual([]);
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await confirmation.getByRole('button', { name: 'Grant' }).click();
    const products = dialog.getByRole('table', { name: `Products of ${keeper.email}` });
    const granted = products.getByRole('row').filter({ hasText: 'Researcher' });
    await granted.getByText('Active').waitFor();
    expect(await grants()).toEqual([
      { product_name: 'Researcher', start_date: day(0), end_date: until },
    ]);
    // The list behind shows it too.
    await p
      .getByRole('table', { name: 'Users and products' })
      .getByRole('row')
      .filter({ hasText: keeper.email })
      .getByRole('cell', { name: 'Researcher' })
      .waitFor();

    // Extend to a later day.
    const later = day(400);
    await granted.getByLabel(`New end date of Researcher from ${day(0)}`).fill(later);
    await granted.getByRole('button', { name: 'Extend' }).click();
    await confirmation
      .getByText(`Extend Researcher of Ann Keeper (${keeper.email}) from ${until} to ${later}?`)
      .waitFor();
    await confirmation.getByRole('button', { name: 'Extend' }).click();
    await granted.getByRole('cell', { name: later, exact: true }).waitFor();
    expect((await grants())[0]?.end_date).toBe(later);
    await shots(p, 'admin-plans');

    // Revoke: it started today, so it goes (it was never active before today).
    await granted.getByRole('button', { name: 'Revoke' }).click();
    await confirmation
      .getByText(
        `Revoke Researcher from Ann Keeper (${keeper.email})? It is no longer active from today.`,
      )
      .waitFor();
    await confirmation.getByRole('button', { name: 'Revoke' }).click();
    await dialog
      .getByText(`No products granted: ${keeper.email} is on the Free Forever plan.`)
      .waitFor();
    expect(await grants()).toEqual([]);
    await p.context().close();
  });

  it('shows the reason a grant is refused, and grants nothing', async () => {
    const p = await adminPage();
    await p.getByRole('button', { name: `Manage plans of ${keeper.email}` }).click();
    const dialog = p.getByRole('dialog', { name: `Plans of Ann Keeper (${keeper.email})` });
    // A day already past: the browser's own minimum is not a check, the server's is.
    await dialog.getByLabel('Until (last day)').fill(day(-3));
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Grant' }).click();
    await dialog
      .getByRole('alert')
      .getByText(`end_date must be today (${day(0)}) or later.`)
      .waitFor();
    expect(await grants()).toEqual([]);
    await p.context().close();
  });

  it('says there is nothing to export instead of downloading an empty tar', async () => {
    const p = await adminPage();
    let downloads = 0;
    p.on('download', () => downloads++);
    await p.getByRole('button', { name: 'Export training dataset' }).click();
    await p
      .getByRole('status')
      .getByText(/^No consented corrected frames yet\./)
      .waitFor();
    expect(downloads).toBe(0);
    await shots(p, 'admin-export-empty');
    await p.context().close();
  });
});
