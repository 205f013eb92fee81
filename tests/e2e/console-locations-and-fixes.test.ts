/**
 * Issue 44 in Chromium, through the real server and the built console: hive locations after
 * registration, deleting a file, where toasts sit and how long they live, the sign-in messages
 * (one alert; a rate limit or a busy server said as such), the phone menu and grouping badges,
 * the signed-out plans page and the upload button while it uploads. Found by role and text.
 */
import fs from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_AVAILABLE,
  launchBrowser,
  mediaFixtures,
  newPage,
  screenshot,
  signInThroughUi,
  startConsoleServer,
} from '../support/console.ts';
import { createFile, createUser } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

const PHONE = { width: 390, height: 844 };

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('element has no box');
  return b;
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(!CHROMIUM_AVAILABLE)('issue 44 console fixes in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startConsoleServer({}, false);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (
    locations: string[] = [],
    viewport?: { width: number; height: number },
  ): Promise<{ page: Page; id: number }> => {
    const user = await createUser(server, { locations });
    const { page } = await newPage(browser, server.url, viewport);
    await signInThroughUi(page, user.email, user.password);
    return { page, id: user.id };
  };

  it('adds, renames and removes hive locations; one in use is refused', async () => {
    const { page: p, id } = await signedIn([]);
    await p.goto('/upload-file');
    await p.getByText('No hive locations are registered for your account yet.').waitFor();
    await p.getByRole('link', { name: 'Add a hive location' }).click();
    await p.waitForURL('**/locations');
    await p.getByText('No hive locations yet. Add one above to start uploading.').waitFor();

    const field = p.getByRole('textbox', { name: 'New hive location' });
    await field.fill('Orchard Hill');
    await p.getByRole('button', { name: 'Add Location' }).click();
    await p.getByText('Orchard Hill', { exact: true }).waitFor();
    await field.fill('Apiary North');
    await p.getByRole('button', { name: 'Add Location' }).click();
    await p.getByText('Apiary North', { exact: true }).waitFor();
    await field.fill('apiary north');
    await p.getByRole('button', { name: 'Add Location' }).click();
    await p.getByRole('alert').getByText('You already have a hive location called').waitFor();

    await createFile(server, id, { original_name: 'north.png', location: 'Apiary North' });
    await p.getByRole('link', { name: 'File Upload' }).click();
    await p.getByRole('link', { name: 'Hive Locations' }).click();
    const list = p.getByRole('list', { name: 'Your hive locations' });
    await list.getByText('1 file', { exact: true }).waitFor();
    await expect(list.getByText('0 files', { exact: true }).count()).resolves.toBe(1);

    await p.getByRole('button', { name: 'Rename Apiary North' }).click();
    await p.getByRole('textbox', { name: 'New name for Apiary North' }).fill('Apiary North Field');
    await p.getByRole('button', { name: 'Save' }).click();
    await p.getByText('Apiary North Field', { exact: true }).waitFor();

    await p.setViewportSize({ width: 1280, height: 900 });
    await screenshot(p, 'locations-1280');
    await p.setViewportSize(PHONE);
    await screenshot(p, 'locations-390');
    await p.setViewportSize({ width: 1280, height: 900 });

    await p.getByRole('button', { name: 'Remove Apiary North Field' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await p
      .getByRole('alert')
      .getByText(
        '"Apiary North Field" is the location of 1 file, so it cannot be removed. ' +
          'Rename it instead, or delete those files first.',
      )
      .waitFor();
    await p.getByRole('button', { name: 'Remove Orchard Hill' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await p.getByRole('button', { name: 'Remove Orchard Hill' }).waitFor({ state: 'detached' });

    // The file moved with its location, and uploads offer the renamed one.
    await p.goto('/file-upload-list');
    await p.getByRole('cell', { name: 'Apiary North Field' }).waitFor();
    await expect(p.getByLabel('Location').locator('option').allTextContents()).resolves.toEqual([
      'Select location',
      'Apiary North Field',
    ]);
    await p.context().close();
  });

  it('deletes a file from its page after a confirmation', async () => {
    const { page: p, id } = await signedIn(['Apiary North']);
    const fileId = await createFile(server, id, {
      original_name: 'to-delete.png',
      media: fs.readFileSync(mediaFixtures().picture),
    });
    await p.goto(`/files/${fileId}`);
    await p.getByRole('button', { name: 'Delete file' }).click();
    const dialog = p.getByRole('alertdialog');
    await dialog.getByText('Its media, report and counts go for good').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await p.getByRole('button', { name: 'Delete file' }).click();
    await p.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await p.waitForURL('**/file-upload-list');
    await p.getByText('to-delete.png and its report were deleted.').waitFor();
    await p.getByText('No files uploaded yet.').waitFor();
    expect(await server.app.db('files').where('id', fileId).first()).toBeUndefined();
    await p.context().close();
  });

  it('keeps toasts off the navigation and drops them on the next screen', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
      const { page: p } = await signedIn(['Apiary North'], viewport);
      await p.goto('/upload-file');
      await p.getByRole('button', { name: 'Upload File' }).click();
      const toast = p.getByText('Please provide a file, description, and location');
      await toast.waitFor();
      // Measured where it comes to rest: its entry transition over (react-transition-group's
      // class for a finished entry).
      await p.locator('.bp6-toast-enter-done', { has: toast }).waitFor();
      const toastBox = await box(toast);
      for (const control of [
        p.getByRole('button', { name: 'Logout' }),
        p.getByRole('button', { name: /Switch to (dark|light) mode/ }),
        viewport.width > 900
          ? p.getByRole('navigation', { name: 'Sections' })
          : p.getByRole('button', { name: 'Toggle navigation menu' }),
      ])
        expect(overlaps(toastBox, await box(control))).toBe(false);
      if (viewport.width > 900) {
        await p.getByRole('link', { name: 'Instructions' }).click();
      } else {
        await p.getByRole('button', { name: 'Toggle navigation menu' }).click();
        await p.getByRole('link', { name: 'Instructions' }).click();
      }
      await p.waitForURL('**/instructions');
      await toast.waitFor({ state: 'detached' });
      await p.context().close();
    }
  });

  it('says a sign-in failure once, and names a rate limit or a busy server', async () => {
    const { page: p } = await newPage(browser, server.url);
    await p.goto('/login');
    await p.getByLabel('Email').fill('nobody@example.com');
    await p.getByLabel('Password').fill('wrong-password');
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.getByRole('alert').getByText('Invalid username or password').waitFor();
    // That nothing says it a second time (a toast did once) can only be watched for a while:
    // half a second, many frames past the failure's own render, where a second message would be.
    await p.waitForTimeout(500);
    await expect(p.getByText('Invalid username or password').count()).resolves.toBe(1);
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.getByRole('alert').getByText('Email and password are required').waitFor();
    await expect(p.getByText('Email and password are required').count()).resolves.toBe(1);

    // A busy database: the server's 503 message, not a password complaint.
    const lock = knexFactory({
      client: 'sqlite3',
      connection: { filename: path.join(server.dataDir, 'hivesight.sqlite') },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    });
    try {
      await lock.raw('BEGIN EXCLUSIVE');
      await p.getByLabel('Email').fill('nobody@example.com');
      await p.getByLabel('Password').fill('wrong-password');
      await p.getByRole('button', { name: 'Sign In' }).click();
      await p
        .getByRole('alert')
        .getByText('The service is temporarily unavailable. Please try again shortly.')
        .waitFor({ timeout: 20_000 });
      await lock.raw('ROLLBACK');
    } finally {
      await lock.destroy();
    }
    await p.context().close();
  }, 40_000);

  it('gives a rate-limited sign-in the server message and the wait', async () => {
    const limited = await startConsoleServer({ RATE_LIMIT_MAX_PER_EMAIL: '2' }, false);
    try {
      const { page: p } = await newPage(browser, limited.url);
      await p.goto('/login');
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await p.getByLabel('Email').fill('keeper@example.com');
        await p.getByLabel('Password').fill('wrong-password');
        await p.getByRole('button', { name: 'Sign In' }).click();
        await p.getByRole('alert').waitFor();
        await p.getByRole('button', { name: 'Sign In' }).and(p.locator(':enabled')).waitFor();
      }
      // The server's words, with the wait in minutes (from its message or its Retry-After).
      await p
        .getByRole('alert')
        .getByText(/^Too many .*\b\d+ minutes?\b/)
        .waitFor();
      await expect(p.getByText('Invalid username or password').count()).resolves.toBe(0);
      await p.context().close();
    } finally {
      await limited.stop();
    }
  });

  it('keeps theme and Logout on the top row of the open phone menu', async () => {
    const { page: p } = await signedIn(['Apiary North'], PHONE);
    await p.getByRole('button', { name: 'Toggle navigation menu' }).click();
    await p.getByRole('link', { name: 'Instructions' }).waitFor();
    const burger = await box(p.getByRole('button', { name: 'Toggle navigation menu' }));
    const logout = await box(p.getByRole('button', { name: 'Logout' }));
    const theme = await box(p.getByRole('button', { name: /Switch to (dark|light) mode/ }));
    for (const b of [logout, theme]) {
      expect(Math.abs(b.y + b.height / 2 - (burger.y + burger.height / 2))).toBeLessThan(4);
      expect(b.x).toBeGreaterThan(PHONE.width / 2);
    }
    await screenshot(p, 'phone-menu-open');
    await p.context().close();
  });

  it('shows the whole "Assigned" badge on a phone', async () => {
    const { page: p, id } = await signedIn(['Apiary North'], PHONE);
    await createFile(server, id, { original_name: 'a-rather-long-entrance-file-name.png' });
    await p.goto('/file-grouping');
    await p
      .getByRole('combobox', { name: 'Assign a-rather-long-entrance-file-name.png to' })
      .selectOption('group1');
    const badge = p.getByText('Assigned', { exact: true });
    await badge.waitFor();
    const clipped = await badge.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(clipped).toBe(false);
    await p.context().close();
  });

  it('does not tell a signed-out visitor which plan they are on', async () => {
    const { page: p } = await newPage(browser, server.url);
    await p.goto('/beeplans');
    await p.getByRole('heading', { name: 'Bee Counting Software Plans' }).waitFor();
    await expect(p.getByText('You are currently on the Free Plan.').count()).resolves.toBe(0);
    await p.context().close();
  });

  it('disables the upload button while the upload is on its way', async () => {
    const { page: p } = await signedIn(['Apiary North']);
    await p.goto('/upload-file');
    const picture = mediaFixtures().picture;
    await p.getByLabel('File').setInputFiles(picture);
    await p.getByLabel('Description').fill('Hive 1, morning');
    await p.getByLabel('Location').selectOption('Apiary North');
    // The request is held for a moment on its way to the (real) server, so it is seen in flight.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await p.route('**/api/upload_docs/', async (route) => {
      await held;
      await route.continue();
    });
    const button = p.getByRole('button', { name: 'Upload File' });
    await button.click();
    // Held in flight until release(): the button must turn disabled and stay so meanwhile.
    await expect.poll(() => button.isDisabled()).toBe(true);
    release();
    await p.getByText(/uploaded successfully|Error uploading file/).waitFor({ timeout: 30_000 });
    await expect(button.isDisabled()).resolves.toBe(false);
    await p.context().close();
  }, 60_000);
});
