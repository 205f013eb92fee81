/**
 * A screenshot of every console screen, light and dark, at 1280 px and 390 px wide, saved under
 * screenshots/<run>/ for a person to look at. Also checks that no screen scrolls sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  pendingRequests,
  screenshot,
  setTheme,
  settled,
  signInThroughUi,
  startConsoleServer,
} from '../support/console.ts';
import { createFile, createLocation, createUser, frames } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

const OPEN = [
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password?token=x',
  '/instructions',
  '/beeplans',
  '/success',
  '/cancel',
  '/video-player',
];
const SIGNED_IN = [
  '/home',
  '/upload-file',
  '/file-upload-list',
  '/locations',
  '/contactus',
  '/video-player',
  '/csv-file-search',
  '/users-list',
  '/file-grouping',
];

function shotName(route: string, width: number): string {
  return `${route.replace(/\?.*$/, '').replace(/\//g, '_').replace(/^_/, '') || 'root'}-${width}`;
}

describe.skipIf(!CHROMIUM_AVAILABLE)('console screens', () => {
  let server: TestServer;
  let browser: Browser;
  let fileId = 0;

  beforeAll(async () => {
    server = await startConsoleServer({}, false);
    browser = await launchBrowser();
    const adminRow: unknown = await server.app
      .db('users')
      .where({ email: ADMIN.email })
      .first('id');
    const adminId = (adminRow as { id: number }).id;
    const other = await createUser(server, { locations: ['Apiary North'] });
    await createLocation(server, { userId: adminId, name: 'Apiary North' });
    const frameRows = frames([18, 21, 24, 20, 19, 23]).map((f, i) => ({
      ...f,
      counts: {
        bee: 8 + (i % 3) * 3,
        pollen: 1 + (i % 2) * 2,
        drone: i % 4 === 0 ? 1 : 0,
        wasp: null,
        hornet: null,
      },
    }));
    fileId = await createFile(server, adminId, {
      original_name: 'north-hive-morning-entrance-activity.mp4',
      kind: 'video',
      format: 'mp4',
      counts: { bee: 42, pollen: 9, drone: 3, wasp: null, hornet: null },
      frames: frameRows,
    });
    await createFile(server, adminId, {
      original_name: 'queued-clip.mp4',
      kind: 'video',
      status: 'QUEUED',
    });
    await createFile(server, adminId, {
      original_name: 'blurry.jpg',
      status: 'FAILED',
      status_reason: 'The picture could not be decoded.',
    });
    await createFile(server, other.id, { original_name: 'south-hive.png' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function noSidewaysScroll(page: Page, route: string): Promise<void> {
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${route} scrolls sideways`).toBeLessThanOrEqual(1);
  }

  for (const theme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`every screen, ${theme}, ${width} px`, async () => {
        const { page, context } = await newPage(browser, server.url, { width, height: 900 });
        const pending = pendingRequests(page);
        await page.goto('/login');
        await setTheme(page, theme);
        for (const route of OPEN) {
          await page.goto(route);
          await settled(page, pending);
          await noSidewaysScroll(page, route);
          await screenshot(page, `open-${shotName(route, width)}`);
        }
        await signInThroughUi(page, ADMIN.email, ADMIN.password);
        for (const route of [...SIGNED_IN, `/files/${fileId}`]) {
          await page.goto(route);
          await settled(page, pending);
          await noSidewaysScroll(page, route);
          await screenshot(page, shotName(route, width));
        }
        await context.close();
      });
    }
  }
});
