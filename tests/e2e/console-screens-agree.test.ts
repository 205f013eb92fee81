/**
 * Issue 57, items 3, 4, 5 and 7, in Chromium through the real server, its queue worker with the
 * shipped model and the built console:
 *
 * - 4: a video's status on the files list turns Processed within seconds of its analysis, with
 *   no Refresh, and the list stops asking once nothing is waiting;
 * - 7: the entrance editor draws on a clean still (no boxes), not the annotated preview;
 * - 3: after an entrance is saved, the editor offers "Count again with this entrance" for the
 *   location's videos counted without it, confirming how many and that each uses one of the
 *   day's uploads, and the file page confirms the same; File Grouping shows upload date and
 *   description, telling two files of one name apart;
 * - 5: the hive history charts bees in/out and unique bees on their own axes, keeps its date
 *   labels apart at 390 px and lets its files table scroll sideways there.
 *
 * Screenshots of every screen touched, at 1280 and 390 px, light and dark, go to
 * screenshots/<run>/screens-*.png.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEntranceVideo } from '../../fixtures/index.ts';
import {
  analysedOnServer,
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
import { engineAvailable } from '../support/engine.ts';
import { createUser } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok) console.warn(`[console-screens-agree] engine unavailable (${ENGINE.why}): skipped`);
const PHONE = { width: 390, height: 844 };
const SLOT: [number, number] = [0.5, 0.12];
const LIST = '/api/get-uploaded-files-list/';

let dir: string;

/** Two bees walk into the hive slot and one comes out, stamped with a recording time. */
async function entranceClip(name: string, recordedAt: string): Promise<string> {
  const raw = path.join(dir, 'raw.mp4');
  if (!fs.existsSync(raw)) {
    await writeEntranceVideo(raw, {
      seconds: 9,
      walks: [
        { from: [0.2, 0.9], to: SLOT, startS: 0.2, endS: 2.4 },
        { from: SLOT, to: [0.8, 0.9], startS: 4.0, endS: 6.2 },
        { from: [0.85, 0.85], to: SLOT, startS: 6.0, endS: 8.4 },
      ],
    });
  }
  const out = path.join(dir, name);
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-i', raw, '-c', 'copy', '-metadata', `creation_time=${recordedAt}`, out,
  ]); // prettier-ignore
  return out;
}

/** Uploads through the files list's own form. */
async function upload(p: Page, file: string, description: string) {
  await p.getByLabel('File', { exact: true }).setInputFiles(file);
  await p.getByLabel('Description').fill(description);
  await p.getByLabel('Location').selectOption('Apiary North');
  await p.getByRole('button', { name: 'Upload File' }).click();
  await p.getByText(`File ${path.basename(file)} uploaded successfully.`).waitFor({
    timeout: 60_000,
  });
}

/** Drags a handle of the entrance editor to a frame-relative point. */
async function dragHandle(p: Page, name: RegExp, to: [number, number]) {
  const frame = await p.getByRole('img', { name: /with the entrance drawn over it/ }).boundingBox();
  const handle = await p.getByRole('button', { name }).boundingBox();
  if (!frame || !handle) throw new Error('editor not drawn');
  await p.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await p.mouse.down();
  await p.mouse.move(frame.x + frame.width * to[0], frame.y + frame.height * to[1], { steps: 8 });
  await p.mouse.up();
}

/** The time labels under each history chart, as [left, right] on the screen. */
function timeLabelSpans(p: Page): Promise<Array<Array<[number, number]>>> {
  return p.evaluate(() =>
    Array.from(document.querySelectorAll('.hs-history-chart svg')).map((svg) => {
      const ticks = Array.from(svg.querySelectorAll<SVGTextElement>('text.hs-chart-tick'));
      const bottom = Math.max(...ticks.map((t) => Number(t.getAttribute('y'))));
      return ticks
        .filter((t) => Number(t.getAttribute('y')) === bottom)
        .map((t) => {
          const r = t.getBoundingClientRect();
          return [r.left, r.right] as [number, number];
        });
    }),
  );
}

describe.skipIf(!CHROMIUM_AVAILABLE || !ENGINE.ok)('screens that agree (issue 57)', () => {
  let server: TestServer;
  let browser: Browser;
  let user: { email: string; password: string };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-screens-e2e-'));
    server = await startConsoleServer({}, true);
    browser = await launchBrowser();
    user = await createUser(server, { locations: ['Apiary North'] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps status, entrance, counts and history in step', async () => {
    const { context, page: list } = await newPage(browser, server.url);
    await signInThroughUi(list, user.email, user.password);
    const listCalls: number[] = [];
    list.on('request', (r) => {
      if (r.url().endsWith(LIST)) listCalls.push(Date.now());
    });

    // 4. The status turns Processed on its own within seconds of the analysis.
    await list.goto('/file-upload-list');
    const first = await entranceClip('visit.mp4', '2026-06-01T06:30:00Z');
    await upload(list, first, 'Before the entrance was set');
    await analysedOnServer(server, 'visit.mp4', 150_000);
    await list
      .getByRole('row')
      .filter({ hasText: 'visit.mp4' })
      .getByText('Processed')
      .waitFor({ timeout: 8_000 });

    // 7. The entrance editor draws on a clean still of the video, not its annotated preview.
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    await p.goto('/locations');
    await p.getByRole('link', { name: 'Entrance of Apiary North' }).click();
    await p.getByRole('heading', { name: 'Entrance: Apiary North' }).waitFor();
    const frame = p.getByRole('img', {
      name: 'Frame of visit.mp4 with the entrance drawn over it',
    });
    // The still is decoded from the video on first use.
    await expect
      .poll(() => frame.evaluate((img: HTMLImageElement) => img.naturalWidth), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    expect(await frame.getAttribute('src')).toMatch(/^\/api\/files\/\d+\/frames\/\d+\/still\.jpg$/);
    const editorUrl = new URL(p.url()).pathname;

    // 3. Saving an entrance offers to count the video again with it.
    await dragHandle(p, /^Entrance end 1/, [0.05, 0.5]);
    await dragHandle(p, /^Entrance end 2/, [0.95, 0.5]);
    await p.getByText('Line from (5%, 50%) to (95%, 50%)').waitFor();
    expect(await p.getByRole('button', { name: 'Count again with this entrance' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Save entrance' }).click();
    await p.getByText('Saved', { exact: true }).waitFor();
    await p.getByText(/^1 video of Apiary North was counted before this entrance/).waitFor();
    const offer = p.getByRole('button', { name: 'Count again with this entrance' });
    await offer.waitFor();

    // A second clip of the same name, counted with the entrance from the start.
    const second = await entranceClip('visit.mp4', '2026-06-02T09:00:00Z');
    await upload(list, second, 'After the entrance was set');
    await expect
      .poll(async () => (await server.app.db('files').where('status', 'PROCESSED')).length, {
        timeout: 150_000,
      })
      .toBe(2);
    await list.getByRole('row').filter({ hasText: 'visit.mp4' }).nth(1).waitFor();
    await expect
      .poll(() => list.getByRole('row').filter({ hasText: 'Processed' }).count(), {
        timeout: 8_000,
      })
      .toBe(2);
    const calmFrom = { calls: listCalls.length, at: Date.now() };

    // 3. File Grouping tells the two apart by upload date and description.
    await p.goto('/file-grouping');
    const files = p.getByRole('table', { name: 'Processed files' });
    await files.getByRole('columnheader', { name: 'Uploaded' }).waitFor();
    await files.getByRole('columnheader', { name: 'Description' }).waitFor();
    await files
      .getByRole('row')
      .filter({ hasText: 'visit.mp4' })
      .filter({ hasText: 'Before the entrance was set' })
      .waitFor();
    await files.getByRole('row').filter({ hasText: 'After the entrance was set' }).waitFor();
    await p.getByLabel('Assign visit.mp4 to').first().selectOption('group1');
    await p.getByLabel('Assign visit.mp4 to').nth(1).selectOption('group2');
    const groupUrl = new URL(p.url()).pathname;

    // 5. The history: in/out on an axis of its own, unique bees on another.
    await p.goto('/locations');
    await p.getByRole('link', { name: 'History of Apiary North' }).click();
    await p.getByRole('heading', { name: 'Hive history: Apiary North' }).waitFor();
    const traffic = p.getByRole('img', {
      name: 'Bees in and out of Apiary North per minute, per analysed file',
    });
    const unique = p.getByRole('img', {
      name: 'Unique bees of Apiary North per minute, per analysed file',
    });
    await traffic.waitFor();
    await unique.waitFor();
    const topTick = async (chart: typeof traffic) =>
      Math.max(
        ...(await chart.locator('text.hs-chart-tick').allTextContents())
          .map(Number)
          .filter((n) => Number.isFinite(n)),
      );
    // 13.3 in a minute on a 0-20 axis, not flat under unique bees' hundreds.
    expect(await topTick(traffic)).toBeLessThanOrEqual(20);
    await p
      .getByRole('link', { name: /^visit\.mp4, .*: Bees in per minute 13\.3 \/min/ })
      .waitFor();
    await p.getByRole('link', { name: /^visit\.mp4, .*: Unique bees per minute/ }).waitFor();
    const historyUrl = new URL(p.url()).pathname;
    await screenshot(p, 'screens-history-panels-1280');

    // 3. The editor counts the first video again, after saying what it costs.
    await p.goto(editorUrl);
    await offer.click();
    const confirm = p.getByRole('alertdialog').or(p.getByRole('dialog'));
    await confirm
      .getByText(
        /^Count 1 video again with this entrance\? It uses one of your uploads for today; you have \d+ left\./,
      )
      .waitFor();
    await screenshot(p, 'screens-entrance-confirm-1280');
    // 4. With nothing waiting, the list went back to its minute's refresh.
    expect(listCalls.length - calmFrom.calls).toBeLessThanOrEqual(
      Math.ceil((Date.now() - calmFrom.at) / 60_000),
    );
    await confirm.getByRole('button', { name: 'Count it again' }).click();
    await p.getByText(/^1 video will be counted with the entrance/).waitFor();
    await expect.poll(() => offer.count()).toBe(0);
    await expect
      .poll(
        async () =>
          (await server.app.db('files').where('status', 'PROCESSED').select('summary_json'))
            .map(
              (r: { summary_json: string }) => JSON.parse(r.summary_json) as { traffic?: unknown },
            )
            .filter((s) => s.traffic).length,
        { timeout: 150_000 },
      )
      .toBe(2);

    // 3. Moving the entrance offers the file page's re-count too, with the same confirmation.
    await p.reload();
    await p.getByRole('button', { name: /^Entrance end 1/ }).focus();
    await p.keyboard.press('ArrowDown');
    await p.getByRole('button', { name: 'Save entrance' }).click();
    await p.getByText(/^2 videos of Apiary North were counted before this entrance/).waitFor();
    await p.goto('/file-upload-list');
    await p.getByRole('link', { name: 'visit.mp4' }).first().click();
    await p.getByRole('heading', { name: 'Entrance traffic' }).waitFor({ timeout: 30_000 });
    await p.getByRole('button', { name: 'Count again with the current entrance' }).click();
    await p
      .getByText(
        /^Count 1 video again with this entrance\? It uses one of your uploads for today\./,
      )
      .waitFor();
    await p.getByRole('button', { name: 'Cancel' }).click();
    const fileUrl = new URL(p.url()).pathname;

    await context.close();

    // 5. At 390 px: date labels apart, the files table scrolls inside its card.
    const phone = (await newPage(browser, server.url, PHONE)).page;
    const pending = pendingRequests(phone);
    await signInThroughUi(phone, user.email, user.password);
    await phone.goto(historyUrl);
    await phone
      .getByRole('img', { name: 'Bees in and out of Apiary North per minute, per analysed file' })
      .waitFor();
    await settled(phone, pending);
    for (const labels of await timeLabelSpans(phone)) {
      expect(labels.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < labels.length; i += 1)
        expect(labels[i]![0]).toBeGreaterThan(labels[i - 1]![1]);
    }
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    // Every figure of every file in view, none cut at the edge of the table's card.
    const table = phone.getByRole('table', { name: 'Files in the hive history' });
    const card = await table.locator('xpath=..').boundingBox();
    const cells = await table.getByRole('cell').all();
    expect(cells).toHaveLength(18);
    for (const cell of cells) {
      const box = await cell.boundingBox();
      expect(box && card && box.x >= card.x && box.x + box.width <= card.x + card.width).toBe(true);
    }
    await phone.context().close();

    // Every screen touched, at both widths, light and dark.
    const screens: Array<[string, string, string]> = [
      ['list', '/file-upload-list', 'File Upload'],
      ['entrance', editorUrl, 'Entrance: Apiary North'],
      ['file', fileUrl, 'visit.mp4'],
      ['grouping', groupUrl, 'Create File Groups'],
      ['history', historyUrl, 'Hive history: Apiary North'],
    ];
    for (const [width, viewport] of [
      ['1280', { width: 1280, height: 900 }],
      ['390', PHONE],
    ] as const) {
      const shots = (await newPage(browser, server.url, viewport)).page;
      const waiting = pendingRequests(shots);
      await signInThroughUi(shots, user.email, user.password);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(shots, theme);
        for (const [name, url, heading] of screens) {
          await shots.goto(url);
          await shots.getByRole('heading', { name: heading }).first().waitFor();
          await settled(shots, waiting);
          await screenshot(shots, `screens-${name}-${width}`);
        }
      }
      await shots.context().close();
    }
  }, 600_000);
});
