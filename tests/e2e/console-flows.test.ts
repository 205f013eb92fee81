/**
 * The console end to end: real server (temp SQLite), built console, Debian's Chromium.
 * Elements are found by role and text, as a user finds them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  analysedOnServer,
  CHROMIUM_AVAILABLE,
  latestOutboxMail,
  launchBrowser,
  mediaFixtures,
  newPage,
  resetTokenFrom,
  screenshot,
  signInThroughUi,
} from '../support/console.ts';
import { engineAvailable } from '../support/engine.ts';
import { createFile, createUser, frames } from '../support/factories/index.ts';
import { uniqueEmail } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

/** A held-out validation frame: uploaded straight from the datasets folder, never copied. */
const HIVE_FRAME = path.resolve(
  '../shared/datasets/hive-entrance/images/GH010990.MP4_frame_1200.jpg',
);

const PROTECTED = [
  '/home',
  '/upload-file',
  '/file-upload-list',
  '/contactus',
  '/csv-file-search',
  '/users-list',
  '/file-grouping',
  '/file-grouping/result',
];

describe.skipIf(!CHROMIUM_AVAILABLE)('console flows in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let engineOk = false;
  const user = { email: uniqueEmail('keeper'), password: 'keeper-pass-1', name: 'Kim Keeper' };

  beforeAll(async () => {
    const engine = await engineAvailable();
    engineOk = engine.ok;
    if (!engineOk)
      console.warn(`[console e2e] engine unavailable (${engine.why}): processing checks skipped`);
    const { startConsoleServer } = await import('../support/console.ts');
    server = await startConsoleServer({}, engineOk);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const page = async (): Promise<Page> => (await newPage(browser, server.url)).page;

  it('redirects protected routes to /login when signed out', async () => {
    const p = await page();
    for (const route of PROTECTED) {
      await p.goto(route);
      await p.waitForURL('**/login');
    }
    await p.goto('/');
    await p.waitForURL('**/login');
    await p.goto('/video-player');
    await expect(
      p.getByText('You need to be logged in to watch this video.').isVisible(),
    ).resolves.toBe(true);
    await p.context().close();
  });

  it('validates and completes registration, then goes to /login after 2 s', async () => {
    const p = await page();
    await p.goto('/register');
    await p.getByRole('button', { name: 'Register' }).click();
    for (const m of [
      'Name is required',
      'Email is required',
      'Password is required',
      'Confirm Password is required',
    ])
      await p.getByText(m, { exact: true }).waitFor();
    await p.getByLabel('Name').fill(user.name);
    await p.getByLabel('Email').fill('not-an-email');
    await p.getByLabel(/^Password/).fill('short');
    await p.getByLabel('Confirm Password').fill('other');
    await p.getByRole('button', { name: 'Register' }).click();
    for (const m of [
      'Invalid email',
      'Password must be at least 8 characters',
      'Passwords must match',
    ])
      await p.getByText(m, { exact: true }).waitFor();
    await p.getByLabel('Email').fill(user.email);
    await p.getByLabel(/^Password/).fill(user.password);
    await p.getByLabel('Confirm Password').fill(user.password);
    await p.getByLabel('Hive Location 1', { exact: true }).fill('Apiary North');
    await p.getByRole('button', { name: 'Add Another Hive Location' }).click();
    await p.getByLabel('Hive Location 2', { exact: true }).fill('Scratch');
    await p.getByRole('button', { name: 'Add Another Hive Location' }).click();
    await p.getByLabel('Hive Location 3', { exact: true }).fill('Warehouse 4');
    await p.getByRole('button', { name: 'Delete Hive Location 2' }).click();
    await expect(p.getByLabel('Hive Location 2', { exact: true }).inputValue()).resolves.toBe(
      'Warehouse 4',
    );
    await screenshot(p, 'register-filled');
    await p.getByRole('button', { name: 'Register' }).click();
    await p.getByText('Registration successful!').waitFor();
    await p.getByRole('link', { name: 'Go to Login' }).waitFor();
    await p.waitForURL('**/login', { timeout: 5000 });
    await p.context().close();
  });

  it('shows the sign-in messages and clears the fields after each attempt', async () => {
    const p = await page();
    await p.goto('/login');
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.getByText('Email and password are required').first().waitFor();
    await p.getByLabel('Email').fill(user.email);
    await p.getByLabel('Password').fill('wrong-password');
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.getByText('Invalid username or password').first().waitFor();
    await expect(p.getByLabel('Email').inputValue()).resolves.toBe('');
    await signInThroughUi(p, user.email, user.password);
    await expect(p.evaluate(() => sessionStorage.getItem('email_address'))).resolves.toBe(
      user.email,
    );
    await expect(p.evaluate(() => sessionStorage.getItem('role'))).resolves.toBe('USER');
    // Signed in: /login goes straight back to /home.
    await p.goto('/login');
    await p.waitForURL('**/home');
    await p.context().close();
  });

  it('validates an upload, uploads a picture and shows its counts and CSV', async () => {
    const media = mediaFixtures();
    const p = await page();
    await signInThroughUi(p, user.email, user.password);
    await p.goto('/file-upload-list');
    await p.getByText('No files uploaded yet.').waitFor();
    await p.getByRole('button', { name: 'Upload File' }).click();
    await p.getByText('Missing information').waitFor();
    await p
      .getByText('Please provide a file, description, and location before uploading.')
      .waitFor();
    for (const m of [
      'Select a file to continue.',
      'Enter a brief description of the file.',
      'Select a location for this upload.',
    ])
      await p.getByText(m, { exact: true }).waitFor();
    await p.getByLabel('File', { exact: true }).setInputFiles(media.big);
    await p.getByText('File Size Exceeded').waitFor();
    await p
      .getByText(
        'This file exceeds the 10 MB limit and cannot be processed. Please select a smaller file.',
      )
      .waitFor();
    await p.getByLabel('File', { exact: true }).setInputFiles(media.picture);
    await p.getByText('entrance-picture.png').first().waitFor();
    await p.getByLabel('Description').fill('Hive 1, morning flight');
    await p.getByLabel('Location').selectOption('Apiary North');
    await screenshot(p, 'upload-ready');
    await p.getByRole('button', { name: 'Upload File' }).click();
    if (!engineOk) {
      // Without the engine the server cannot analyse the picture: the console reports the error.
      await p
        .getByText(/uploaded successfully\.|Error uploading file/)
        .first()
        .waitFor({ timeout: 60_000 });
      await screenshot(p, 'upload-without-engine');
      await p.context().close();
      return;
    }
    await p
      .getByText('File entrance-picture.png uploaded successfully.')
      .waitFor({ timeout: 60_000 });
    const table = p.getByRole('table', { name: 'Uploaded Files' });
    await table.getByRole('link', { name: 'entrance-picture.png' }).waitFor();
    await expect(p.getByLabel('Description').inputValue()).resolves.toBe('');
    await p.getByPlaceholder('Search files...').fill('nothing-like-this');
    await p.getByText('No matching files found.').waitFor();
    await p.getByPlaceholder('Search files...').fill('ENTRANCE');
    await table.getByRole('link', { name: 'entrance-picture.png' }).waitFor();
    if (engineOk) {
      await table.getByText('Processed').waitFor();
      await screenshot(p, 'uploaded-files');
      await table.getByRole('link', { name: 'entrance-picture.png' }).click();
      await p.getByRole('heading', { name: 'entrance-picture.png' }).waitFor();
      await p.getByText('Worker bees').waitFor();
      await p.getByRole('img', { name: /Annotated preview/ }).waitFor();
      await screenshot(p, 'file-detail-picture');
      const download = p.waitForEvent('download');
      await p.getByRole('button', { name: 'Download CSV report' }).click();
      const csv = fs.readFileSync(await (await download).path(), 'utf8');
      expect(csv.split('\n')[0]).toMatch(/^frame,time_s,bees,pollen_bees,drones/);
    }
    await p.context().close();
  });

  it('counts the bees on a real hive-entrance frame (read from ../shared/datasets)', async (ctx) => {
    if (!engineOk) ctx.skip();
    if (!fs.existsSync(HIVE_FRAME)) {
      console.log(`SKIP real-frame upload: ${HIVE_FRAME} is absent`);
      ctx.skip();
    }
    const p = await page();
    await signInThroughUi(p, user.email, user.password);
    await p.goto('/upload-file');
    await p.getByLabel('File', { exact: true }).setInputFiles(HIVE_FRAME);
    await p.getByLabel('Description').fill('Landing board, validation frame');
    await p.getByLabel('Location').selectOption('Apiary North');
    await p.getByRole('button', { name: 'Upload File' }).click();
    const name = path.basename(HIVE_FRAME);
    await p.getByText(`File ${name} uploaded successfully.`).waitFor({ timeout: 60_000 });
    await p.goto('/file-upload-list');
    await p.getByRole('table', { name: 'Uploaded Files' }).getByRole('link', { name }).click();
    await p.getByRole('heading', { name }).waitFor();
    const workers = p.locator('.hs-count').filter({ hasText: 'Worker bees' }).locator('dd');
    await expect.poll(async () => Number(await workers.textContent())).toBeGreaterThan(5);
    await screenshot(p, 'file-detail-hive-frame');
    await p.context().close();
  });

  it('uploads a video and sees it go from queued to processed', async (ctx) => {
    if (!engineOk) ctx.skip();
    const media = mediaFixtures();
    const p = await page();
    await signInThroughUi(p, user.email, user.password);
    await p.goto('/upload-file');
    await p.getByRole('heading', { name: 'Upload Your Images / Videos' }).waitFor();
    await p.getByLabel('File', { exact: true }).setInputFiles(media.video);
    await p.getByLabel('Description').fill('Hive 2, afternoon');
    await p.getByLabel('Location').selectOption('Warehouse 4');
    await p.getByRole('button', { name: 'Upload File' }).click();
    await p.getByText('File entrance-clip.mp4 uploaded successfully.').waitFor({ timeout: 60_000 });
    await p.goto('/file-upload-list');
    const row = p.getByRole('row').filter({ hasText: 'entrance-clip.mp4' });
    await row.getByText(/Queued|Processing|Uploaded|Processed/).waitFor();
    await analysedOnServer(server, 'entrance-clip.mp4', 120_000);
    await p.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText('Processed').waitFor();
    await row.getByRole('link', { name: 'entrance-clip.mp4' }).click();
    await p.getByRole('img', { name: /Insects on screen per analysed frame/ }).waitFor();
    await screenshot(p, 'file-detail-video');
    await p.context().close();
  });

  it('resets a forgotten password through the outbox e-mail', async () => {
    const p = await page();
    await p.goto('/forgot-password');
    await p.getByRole('button', { name: 'Send Reset Link' }).click();
    await p.getByText('Please enter your email address.').waitFor();
    await p.getByLabel('Email').fill('nobody@example.com');
    await p.getByRole('button', { name: 'Send Reset Link' }).click();
    await p.getByText('Please enter the registered email address').waitFor();
    await p.getByLabel('Email').fill(user.email);
    await p.getByRole('button', { name: 'Send Reset Link' }).click();
    await p.getByText('Password reset link sent! Please check your email.').waitFor();
    const mail = latestOutboxMail(server.dataDir);
    expect(mail).not.toBeNull();
    const token = resetTokenFrom(mail ?? '');
    expect(token).toBeTruthy();
    await p.goto(`/reset-password?token=${encodeURIComponent(token ?? '')}`);
    await p.getByPlaceholder('Enter new password').waitFor();
    await p.getByRole('button', { name: 'Reset Password' }).click();
    await p.getByText('New Password is required').waitFor();
    await p.getByLabel('New Password').fill('short');
    await p.getByRole('button', { name: 'Reset Password' }).click();
    await p.getByText('Password must be at least 8 characters').waitFor();
    user.password = 'brand-new-pass-2';
    await p.getByLabel('New Password').fill(user.password);
    await p.getByRole('button', { name: 'Reset Password' }).click();
    // Done: on to sign-in, saying so, and no stale "required" complaint.
    await p.waitForURL('**/login');
    await p
      .getByRole('status')
      .getByText('Your password has been updated. Sign in with your new password.')
      .waitFor();
    await p.getByText('Your password has been updated.', { exact: true }).waitFor(); // the toast
    await expect(p.getByText('New Password is required').count()).resolves.toBe(0);
    // The link works once.
    await p.goto(`/reset-password?token=${encodeURIComponent(token ?? '')}`);
    await p.getByLabel('New Password').fill('another-pass-3');
    await p.getByRole('button', { name: 'Reset Password' }).click();
    await p.getByText('There was an error updating your password.').waitFor();
    await signInThroughUi(p, user.email, user.password);
    await p.context().close();
  });

  it('refuses a plain user on the admin screens', async () => {
    const p = await page();
    await signInThroughUi(p, user.email, user.password);
    const nav = p.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'File Upload' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Users List' }).count()).resolves.toBe(0);
    await expect(nav.getByRole('link', { name: 'File Search' }).count()).resolves.toBe(0);
    for (const route of ['/users-list', '/csv-file-search']) {
      await p.goto(route);
      await p.getByRole('heading', { name: 'Administrators only' }).waitFor();
    }
    await screenshot(p, 'administrators-only');
    await p.getByRole('button', { name: 'Logout' }).click();
    await p.waitForURL('**/login');
    await expect(p.evaluate(() => sessionStorage.length)).resolves.toBe(0);
    await p.context().close();
  });

  it('lets an admin search files, export users and compare two groups', async () => {
    const owner = await createUser(server, { locations: ['Apiary North'] });
    // Grouping works over the signed-in user's own processed files: give the admin some too.
    const adminRow: unknown = await server.app
      .db('users')
      .where({ email: ADMIN.email })
      .first('id');
    const admin = adminRow as { id: number };
    const bees = (bee: number, pollen: number, drone: number) => ({
      bee,
      pollen,
      drone,
      wasp: null,
      hornet: null,
    });
    for (const [i, c] of [
      bees(40, 10, 2),
      bees(38, 8, 3),
      bees(30, 2, 6),
      bees(35, 1, 7),
    ].entries()) {
      await createFile(server, owner.id, {
        original_name: `owner-upload-${i}.png`,
        location: 'Warehouse 4',
      });
      await createFile(server, admin.id, {
        original_name: `hive-${i < 2 ? 'strong' : 'weak'}-colony-entrance-recording-${i}.mp4`,
        kind: 'video',
        format: 'mp4',
        location: i < 2 ? 'Apiary North' : 'Warehouse 4',
        counts: c,
        frames: frames([20 + i, 22 + i, 18 + i]),
      });
    }
    const p = await page();
    await signInThroughUi(p, ADMIN.email, ADMIN.password);

    await p.goto('/csv-file-search');
    await p.getByLabel('Start date').fill('');
    await p.getByLabel('Start date').press('Tab');
    await p.getByRole('button', { name: 'Search' }).click();
    await p.getByText('Pick a date range.').waitFor();
    await p.getByRole('button', { name: 'Clear' }).click();
    await p.getByLabel('Location', { exact: true }).fill('Nowhere-at-all');
    await p.getByRole('button', { name: 'Search' }).click();
    await p.getByText('No files matched.').waitFor();
    await p.getByText('No files found').waitFor();
    await p.getByRole('button', { name: 'Clear' }).click();
    await p.getByRole('button', { name: 'Search' }).click();
    const results = p.getByRole('table', { name: 'Search results' });
    await results.getByText(owner.email).first().waitFor();
    await p
      .getByText(/\d+ match(es)?/)
      .first()
      .waitFor();
    await p.getByLabel('Filter by file name, email, status, or location').fill(owner.email);
    await p.getByText('4 matches').waitFor();
    await p.getByLabel('Filter by file name, email, status, or location').fill('zzz-none');
    await p.getByText('Nothing matches that filter').waitFor();
    await screenshot(p, 'file-search-results');

    await p.goto('/users-list');
    await p.getByRole('table', { name: 'Users and products' }).getByText(owner.email).waitFor();
    await p.getByText(/^Updated /).waitFor();
    await p.getByLabel('Search by email address').fill('no-such-user');
    await p.getByText('No users match that search').waitFor();
    await p.getByLabel('Search by email address').fill('');
    const download = p.waitForEvent('download');
    await p.getByRole('button', { name: 'Export CSV' }).click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8');
    expect(csv).toContain(owner.email);
    await p.getByText('Download started.').waitFor();
    await screenshot(p, 'users-list');

    await p.goto('/file-grouping');
    await p.getByText('Add at least one file per group').waitFor();
    await p.getByRole('button', { name: 'Submit Groups for Computation' }).click();
    await p.getByText('Select at least one file in each group before submitting.').waitFor();
    for (let i = 0; i < 4; i += 1) {
      const name = `hive-${i < 2 ? 'strong' : 'weak'}-colony-entrance-recording-${i}.mp4`;
      await p.getByLabel(`Assign ${name} to`).selectOption(i < 2 ? 'group1' : 'group2');
    }
    await p.getByText('Ready to submit').waitFor();
    await p.getByRole('button', { name: 'Refresh' }).click();
    await p.getByText('Ready to submit').waitFor();
    await screenshot(p, 'file-grouping');
    await p.getByRole('button', { name: 'Submit Groups for Computation' }).click();
    await p.waitForURL('**/file-grouping/result');
    await p.getByText('Computation complete').waitFor();
    await p.getByText('Pollen levels · Group 1').waitFor();
    await p
      .getByText(/95% CI/)
      .first()
      .waitFor();
    await p
      .getByText(/significant difference/i)
      .first()
      .waitFor();
    await p
      .getByText(/^\d+\.\d%$/)
      .first()
      .waitFor();
    await screenshot(p, 'comparison');
    // Without the grouping screen's state the result page sends the user back.
    await p.goto('/home');
    await p.goto('/file-grouping/result');
    await p.getByRole('heading', { name: 'Create File Groups' }).waitFor();
    expect(new URL(p.url()).pathname).toBe('/file-grouping');
    await p.context().close();
  });

  it('ends the local session when the server says 401', async () => {
    const p = await page();
    // Requests not yet answered. Not the page's 'networkidle': Chromium never reports the body
    // of the 401 that /login's session check gets as finished, so that state never comes.
    const inFlight = new Set<unknown>();
    p.on('request', (r) => inFlight.add(r));
    p.on('response', (r) => inFlight.delete(r.request()));
    p.on('requestfailed', (r) => inFlight.delete(r));
    await signInThroughUi(p, user.email, user.password);
    // A session refresh answered after the clear would put the cookie back: let them land first.
    await expect.poll(() => inFlight.size, { timeout: 10_000, interval: 50 }).toBe(0);
    await p.context().clearCookies();
    await p.goto('/file-upload-list');
    await p.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(new URL(p.url()).pathname).toBe('/login');
    await expect(p.evaluate(() => sessionStorage.getItem('isAuthenticated'))).resolves.toBeNull();
    await p.context().close();
  });
});
