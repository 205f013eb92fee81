/**
 * Support for the console end-to-end tests: a real server (temp SQLite, in-process worker)
 * serving the built console, Debian's Chromium driven by playwright-core, small media fixtures
 * made with ffmpeg, and screenshots saved under screenshots/<run>/ (git-ignored).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { uploadFile } from './factories/file.ts';
import { signIn, startTestServer } from './server.ts';
import type { TestClient, TestServer } from './server.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_AVAILABLE = fs.existsSync(CHROMIUM);
if (!CHROMIUM_AVAILABLE)
  console.warn(`[console e2e] ${CHROMIUM} not found: console e2e suites are skipped`);

export const REPO = path.resolve(import.meta.dirname, '..', '..');
export const CONSOLE_DIR = path.join(REPO, 'dist', 'console');
export const ADMIN = { email: 'admin@hivesight.test', password: 'admin-pass-123' };

const RUN = process.env.SCREENSHOT_RUN ?? new Date().toISOString().replace(/[:.]/g, '-');
export const SCREENSHOT_DIR = path.join(REPO, 'screenshots', RUN);

/** Newest modification time of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds the console when dist/console is missing or older than any console source. */
export function ensureConsoleBuilt(): void {
  const index = path.join(CONSOLE_DIR, 'index.html');
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= newestMtime(path.join(REPO, 'console')))
    return;
  execFileSync('npm', ['run', 'build:console'], { cwd: REPO, stdio: 'inherit' });
}

export async function startConsoleServer(
  env: Record<string, string> = {},
  worker = true,
): Promise<TestServer> {
  ensureConsoleBuilt();
  return startTestServer('sqlite', {
    worker,
    consoleDir: CONSOLE_DIR,
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env },
  });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** A 390 x 844 phone with touch (Chromium's touch emulation), at twice the pixel density. */
export async function newPhonePage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/**
 * Uploads a photo as the user through the API (a photo is analysed in the request); answers
 * the new file's id and the signed-in client.
 */
export async function uploadPhotoAs(
  server: TestServer,
  user: { email: string; password: string },
  file: string,
  fields: { location: string; description: string },
): Promise<{ id: number; client: TestClient }> {
  const client = server.client();
  await signIn(client, user.email, user.password);
  const res = await uploadFile(client, {
    name: path.basename(file),
    data: fs.readFileSync(file),
    ...fields,
  });
  expect(res.status).toBe(201);
  return { id: res.json<{ file: { id: number } }>().file.id, client };
}

/** Saves a full-page screenshot as <name>-<theme>.png in this run's folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const dark = await page.evaluate(() => document.body.classList.contains('bp6-dark'));
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}-${dark ? 'dark' : 'light'}.png`),
    fullPage: true,
  });
}

/**
 * Counts the page's requests still waiting for their response. Attach it before the first
 * navigation. A response, not `requestfinished`: Chromium never reports the body of the 401
 * that /login's session check gets as finished.
 */
export function pendingRequests(page: Page): () => number {
  const open = new Set<unknown>();
  page.on('request', (r) => open.add(r));
  page.on('response', (r) => open.delete(r.request()));
  page.on('requestfailed', (r) => open.delete(r));
  return () => open.size;
}

/**
 * In the page: a screen drawn (its title, or the outcome screens' non-ideal state), with nothing
 * loading and its pictures in.
 */
function screenDrawn(): boolean {
  return (
    document.querySelector('h1, .bp6-non-ideal-state') !== null &&
    document.querySelector('.bp6-spinner, .bp6-skeleton, [aria-busy="true"]') === null &&
    Array.from(document.images).every((img) => img.complete)
  );
}

/**
 * Waits until a screen is ready to be looked at: drawn with nothing loading, no request of the
 * page unanswered two frames after that (the frames let a render's effects start theirs), fonts
 * loaded and every CSS transition or animation that ends (not a spinner's) at its end.
 */
export async function settled(page: Page, pending: () => number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page
      .waitForFunction(screenDrawn, undefined, { timeout: timeoutMs })
      .catch(async (err: unknown) => {
        const why = await page.evaluate(() => ({
          title: document.querySelector('h1, .bp6-non-ideal-state')?.textContent,
          busy: document
            .querySelector('.bp6-spinner, .bp6-skeleton, [aria-busy="true"]')
            ?.outerHTML.slice(0, 300),
          images: Array.from(document.images)
            .filter((i) => !i.complete)
            .map((i) => i.src),
        }));
        throw new Error(`${page.url()} not drawn: ${JSON.stringify(why)} (${String(err)})`);
      });
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    if (pending() === 0 && (await page.evaluate(screenDrawn))) break;
    if (Date.now() > deadline) throw new Error(`${page.url()} did not settle`);
  }
  await page.evaluate(async () => {
    await document.fonts.ready;
    const ending = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
}

export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('hivesight-theme', t), theme);
}

export async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/home');
}

/**
 * Waits until the server's newest file of that name is analysed (PROCESSED or FAILED), looking
 * at its row: the console's lists refresh only every minute or on Refresh, so a test waits on
 * the server and then clicks Refresh once.
 */
export async function analysedOnServer(server: TestServer, name: string, timeoutMs: number) {
  await expect
    .poll(
      async () => {
        const row: unknown = await server.app
          .db('files')
          .where('original_name', name)
          .orderBy('id', 'desc')
          .first('status');
        return (row as { status?: string } | undefined)?.status;
      },
      { timeout: timeoutMs, interval: 100, message: `${name} analysed` },
    )
    .toMatch(/^(PROCESSED|FAILED)$/);
}

let fixtureDir: string | null = null;

/** A small picture and a short video made with ffmpeg's test sources (project-made, no dataset). */
export function mediaFixtures(): { picture: string; video: string; big: string } {
  fixtureDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'hs-console-media-'));
  const picture = path.join(fixtureDir, 'entrance-picture.png');
  const video = path.join(fixtureDir, 'entrance-clip.mp4');
  const big = path.join(fixtureDir, 'too-big.mp4');
  if (!fs.existsSync(picture)) {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240',
      '-frames:v',
      '1',
      picture,
    ]);
  }
  if (!fs.existsSync(video)) {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=10',
      '-t',
      '2',
      '-pix_fmt',
      'yuv420p',
      video,
    ]);
  }
  if (!fs.existsSync(big)) {
    // 11 MB of zeros with an .mp4 name: over the free 10 MB limit, rejected before upload.
    fs.writeFileSync(big, Buffer.alloc(11 * 1024 * 1024));
  }
  return { picture, video, big };
}

/** The newest .eml in DATA_DIR/outbox, read as text. */
export function latestOutboxMail(dataDir: string): string | null {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return files[0] ? fs.readFileSync(files[0], 'utf8') : null;
}

/** The reset token from a reset e-mail (quoted-printable soft breaks undone). */
export function resetTokenFrom(mail: string): string | null {
  const flat = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /reset-password\?token=([A-Za-z0-9_%.-]+)/.exec(flat);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
