/**
 * The frame editor on a phone and drawing boxes (issue 57, item 6), in Chromium: on a 390 px
 * touch phone the editor opens full screen, labels only the selected box, zooms by a real
 * two-finger pinch and pans by two fingers, draws a box by a one-finger drag, takes a slip for a
 * tap and moves a box dragged from inside it; on a desktop a mouse drag draws a box and full
 * screen leaves by Escape. Screenshots at 1280 and 390 px, light and dark, go to SCREENSHOT_DIR.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import {
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  newPhonePage,
  screenshot,
  SCREENSHOT_DIR,
  setTheme,
  signInThroughUi,
  startConsoleServer,
  uploadPhotoAs,
} from '../support/console.ts';
import { createUser } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

interface Point {
  x: number;
  y: number;
}
type Rect = { x: number; y: number; width: number; height: number };

const FULL = 'Frame editor, full screen';
const boxesIn = (scope: Locator) => scope.getByRole('button', { name: / box \d+$/ });
const rect = async (l: Locator): Promise<Rect> => (await l.boundingBox())!;
const centre = (r: Rect): Point => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

/** The rectangles of every box in scope, grown to hold its corner handles and class label. */
async function boxRects(scope: Locator): Promise<Rect[]> {
  const all = await boxesIn(scope).all();
  return Promise.all(
    all.map(async (b) => {
      const r = await rect(b);
      return { x: r.x - 30, y: r.y - 30, width: r.width + 90, height: r.height + 60 };
    }),
  );
}

/**
 * A point on the shown picture, clear of every box (and its handles) and of the zoom buttons,
 * from which a drag of (dx, dy) stays on the picture.
 */
async function emptySpot(scope: Locator, dx: number, dy: number): Promise<Point> {
  const view = await rect(scope.getByLabel(/^Frame picture/));
  const pic = await rect(scope.getByRole('img', { name: /of this file$/ }));
  const left = Math.max(view.x, pic.x) + 10;
  const top = Math.max(view.y, pic.y) + 50;
  const right = Math.min(view.x + view.width, pic.x + pic.width) - 10 - dx;
  const bottom = Math.min(view.y + view.height, pic.y + pic.height) - 10 - dy;
  const taken = await boxRects(scope);
  const inside = (p: Point, r: Rect) =>
    p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
  for (let y = top; y <= bottom; y += 7) {
    for (let x = left; x <= right; x += 7) {
      if (!taken.some((r) => inside({ x, y }, r))) return { x, y };
    }
  }
  throw new Error('no empty spot on the picture');
}

/** The first box (but the last, just drawn) whose middle the picture's window shows. */
async function shownBox(scope: Locator): Promise<Locator> {
  const view = await rect(scope.getByLabel(/^Frame picture/));
  const all = (await boxesIn(scope).all()).slice(0, -1);
  for (const box of all) {
    const c = centre(await rect(box));
    const inX = c.x > view.x + 20 && c.x < view.x + view.width - 20;
    if (inX && c.y > view.y + 50 && c.y < view.y + view.height - 20) return box;
  }
  throw new Error('no box in view');
}

/** A full-screen view is the screen: saved as the viewport shows it, <name>-<theme>.png. */
async function viewShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const dark = await page.evaluate(() => document.body.classList.contains('bp6-dark'));
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}-${dark ? 'dark' : 'light'}.png`),
  });
}

/** Real touches through the DevTools protocol: each finger keeps its id from start to end. */
function fingers(cdp: CDPSession) {
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })),
    });
  return {
    /** Fingers down at `from`, moved in `steps` to `to`, lifted. */
    async gesture(from: Point[], to: Point[], steps = 8): Promise<void> {
      await send('touchStart', from);
      for (let i = 1; i <= steps; i += 1) {
        const t = i / steps;
        await send(
          'touchMove',
          from.map((p, k) => ({ x: p.x + (to[k]!.x - p.x) * t, y: p.y + (to[k]!.y - p.y) * t })),
        );
      }
      await send('touchEnd', []);
    },
  };
}

describe.skipIf(!CHROMIUM_AVAILABLE)('frame editor on a phone, and drawing boxes', () => {
  let server: TestServer;
  let browser: Browser;
  let user: { id: number; email: string; password: string };

  /**
   * A processed wide photo of synthetic bees (an entrance board's shape), through the API, with
   * a box on each bee saved as its correction: the editor starts from those seven boxes whatever
   * the model found.
   */
  async function uploadPhoto(seed: number): Promise<number> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-touch-'));
    const scene = randomBeeScene({ width: 1280, height: 360, count: 7, seed, beeLength: 48 });
    const { file } = await writeBeeImage(path.join(dir, `board-${seed}.png`), scene);
    const { id, client } = await uploadPhotoAs(server, user, file, {
      location: 'Apiary South',
      description: 'Entrance board',
    });
    const labels = scene.bees.map((b) => ({
      cls: 'bee',
      box: {
        x: Math.round(b.x - b.length / 2),
        y: Math.round(b.y - b.length / 2),
        width: b.length,
        height: b.length,
      },
    }));
    const put = await client.request('PUT', `/api/files/${id}/frames/0`, { json: { labels } });
    expect(put.status).toBe(200);
    return id;
  }

  const storedLabels = async (fileId: number): Promise<unknown[]> => {
    const row = (await server.app.db('corrected_frames').where('file_id', fileId).first()) as
      { labels_json: string } | undefined;
    return row ? (JSON.parse(row.labels_json) as unknown[]) : [];
  };

  let photo = 0;
  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    user = await createUser(server, { locations: ['Apiary South'] });
    photo = await uploadPhoto(7);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('on a 390 px phone: full screen, pinch and two-finger pan, draw by a drag, tap, close', async () => {
    const fileId = await uploadPhoto(8);
    const { context, page } = await newPhonePage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    await page.goto(`/files/${fileId}`);
    await page.getByRole('button', { name: 'Correct this photo' }).tap();

    // The editor takes the whole screen, the picture most of it (it was 320 x 90 in the page).
    const full = page.getByRole('dialog', { name: FULL });
    await full.waitFor();
    expect(await rect(full)).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    const picture = full.getByLabel(/^Frame picture/);
    const view = await rect(picture);
    expect(view.width).toBeGreaterThanOrEqual(388);
    expect(view.height).toBeGreaterThan(500);
    await expect.poll(() => boxesIn(full).count()).toBe(7);
    const before = 7;
    const labels = () => boxesIn(full).allInnerTexts();

    // No box wears its label until it is selected, by a tap.
    expect((await labels()).every((t) => t === '')).toBe(true);
    const first = boxesIn(full).first();
    const firstAt = centre(await rect(first));
    await page.touchscreen.tap(firstAt.x, firstAt.y);
    await expect.poll(() => first.getAttribute('aria-pressed')).toBe('true');
    expect((await labels()).filter((t) => t !== '')).toHaveLength(1);
    expect(await labels()).toContain((await first.getAttribute('aria-label'))!.split(' ')[0]);

    const cdp = await context.newCDPSession(page);
    const touch = fingers(cdp);

    // A slip of 3 px on the picture is a tap: it draws nothing and deselects.
    const slip = await emptySpot(full, 10, 10);
    await touch.gesture([slip], [{ x: slip.x + 3, y: slip.y + 1 }], 3);
    await expect.poll(() => first.getAttribute('aria-pressed')).toBe('false');
    expect(await boxesIn(full).count()).toBe(before);

    // Two fingers spreading from 80 to 160 px apart double the zoom about their middle.
    const widthAtFit = (await rect(first)).width;
    const mid = centre(view);
    await touch.gesture(
      [
        { x: mid.x - 40, y: mid.y },
        { x: mid.x + 40, y: mid.y },
      ],
      [
        { x: mid.x - 80, y: mid.y },
        { x: mid.x + 80, y: mid.y },
      ],
    );
    const level = full.getByRole('button', { name: /^Zoom level/ });
    await expect.poll(() => level.textContent()).toBe('200 %');
    expect((await rect(first)).width / widthAtFit).toBeCloseTo(2, 1);

    // Both fingers moved 40 px left pan the picture 40 px left.
    const beforePan = await rect(first);
    await touch.gesture(
      [
        { x: mid.x - 50, y: mid.y },
        { x: mid.x + 50, y: mid.y },
      ],
      [
        { x: mid.x - 90, y: mid.y },
        { x: mid.x + 10, y: mid.y },
      ],
    );
    await expect.poll(async () => beforePan.x - (await rect(first)).x).toBeCloseTo(40, 0);
    expect(await level.textContent()).toBe('200 %');

    // One finger dragged 70 x 50 px across the picture draws a box that size, selected.
    const from = await emptySpot(full, 70, 50);
    await touch.gesture([from], [{ x: from.x + 70, y: from.y + 50 }]);
    await expect.poll(() => boxesIn(full).count()).toBe(before + 1);
    const drawn = boxesIn(full).last();
    expect(await drawn.getAttribute('aria-pressed')).toBe('true');
    const drawnAt = await rect(drawn);
    expect(drawnAt.x).toBeCloseTo(from.x, -1);
    expect(drawnAt.width).toBeCloseTo(70, -1);
    expect(drawnAt.height).toBeCloseTo(50, -1);
    await viewShot(page, 'editor-full-390-drawn');

    // A drag that starts on a box (one in view, not the drawn one) moves it and draws nothing.
    const shown = await shownBox(full);
    const moving = await rect(shown);
    const grip = centre(moving);
    await touch.gesture([grip], [{ x: grip.x + 20, y: grip.y + 12 }]);
    const moved = await rect(shown);
    expect(moved.x - moving.x).toBeCloseTo(20, -1);
    expect(moved.y - moving.y).toBeCloseTo(12, -1);
    expect(await boxesIn(full).count()).toBe(before + 1);

    // The labelled close button leaves full screen; the page's editor keeps the edits.
    await full.getByRole('button', { name: 'Close full screen' }).tap();
    await full.waitFor({ state: 'detached' });
    const editor = page.getByRole('region', { name: 'Frame editor' });
    await editor.getByText(`${before + 1} boxes`).waitFor();
    await editor.getByRole('button', { name: 'Save corrections' }).tap();
    await page.getByText('Corrections saved').first().waitFor();
    expect(await storedLabels(fileId)).toHaveLength(8);
    await context.close();
  }, 240_000);

  it('on a desktop a mouse drag draws a box, a slip does not, the wheel zooms, Escape leaves full screen', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    await page.goto(`/files/${photo}`);
    await page.getByRole('button', { name: 'Correct this photo' }).click();
    const editor = page.getByRole('region', { name: 'Frame editor' });
    await expect.poll(() => boxesIn(editor).count()).toBe(7);
    const before = 7;
    await editor.getByLabel(/^Frame picture/).scrollIntoViewIfNeeded();

    const drag = async (from: Point, dx: number, dy: number) => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 3 });
      await page.mouse.move(from.x + dx, from.y + dy, { steps: 3 });
      await page.mouse.up();
    };
    const from = await emptySpot(editor, 60, 40);
    await drag(from, 60, 40);
    await expect.poll(() => boxesIn(editor).count()).toBe(before + 1);
    const drawn = await rect(boxesIn(editor).last());
    expect(drawn.width).toBeCloseTo(60, -1);
    expect(drawn.height).toBeCloseTo(40, -1);
    expect(await boxesIn(editor).last().getAttribute('aria-pressed')).toBe('true');

    // A 2 px slip on the picture deselects and draws nothing.
    await drag(await emptySpot(editor, 10, 10), 2, 1);
    await expect.poll(() => editor.getByRole('button', { pressed: true }).count()).toBe(0);
    expect(await boxesIn(editor).count()).toBe(before + 1);

    // Ctrl+wheel (a trackpad's pinch) zooms about the pointer; the plain wheel then pans.
    const level = editor.getByRole('button', { name: /^Zoom level/ });
    const picture = centre(await rect(editor.getByLabel(/^Frame picture/)));
    await page.mouse.move(picture.x, picture.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -140);
    await page.keyboard.up('Control');
    // e^(140/200): about twice.
    await expect.poll(async () => parseInt((await level.textContent())!, 10)).toBe(201);
    const drawnZoomed = await rect(boxesIn(editor).last());
    await page.mouse.wheel(60, 0);
    await expect
      .poll(async () => drawnZoomed.x - (await rect(boxesIn(editor).last())).x)
      .toBeCloseTo(60, 0);
    await level.click();
    await expect.poll(() => level.textContent()).toBe('100 %');

    // Full screen on a desktop shows every label, and Escape brings the page back.
    await editor.getByRole('button', { name: 'Full screen' }).click();
    const full = page.getByRole('dialog', { name: FULL });
    await full.waitFor();
    expect(await rect(full)).toMatchObject({ width: 1280, height: 900 });
    expect(await boxesIn(full).count()).toBe(before + 1);
    await page.keyboard.press('Escape');
    await full.waitFor({ state: 'detached' });
    expect(await boxesIn(editor).count()).toBe(before + 1);
    await context.close();
  }, 180_000);

  for (const theme of ['light', 'dark'] as const) {
    it(`screenshots of the editor at 1280 and 390 px, ${theme}`, async () => {
      for (const width of [1280, 390]) {
        const { context, page } =
          width === 390
            ? await newPhonePage(browser, server.url)
            : await newPage(browser, server.url, { width: 1280, height: 900 });
        await signInThroughUi(page, user.email, user.password);
        await setTheme(page, theme);
        await page.goto(`/files/${photo}`);
        await page.getByRole('button', { name: 'Correct this photo' }).click();
        const editor = page.getByRole('region', { name: 'Frame editor' });
        const full = page.getByRole('dialog', { name: FULL });
        if (width === 1280) {
          await expect.poll(() => boxesIn(editor).count(), { timeout: 30_000 }).toBe(7);
          await boxesIn(editor).first().click();
          await screenshot(page, `editor-page-${width}`);
          await editor.getByRole('button', { name: 'Full screen' }).click();
        }
        await expect.poll(() => boxesIn(full).count(), { timeout: 30_000 }).toBe(7);
        await boxesIn(full).first().click();
        await viewShot(page, `editor-full-${width}`);
        await full.getByRole('button', { name: 'Close full screen' }).click();
        await full.waitFor({ state: 'detached' });
        if (width === 390) await screenshot(page, `editor-page-${width}`);
        await context.close();
      }
    }, 240_000);
  }
});
