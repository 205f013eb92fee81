/**
 * Plan rules and results a beekeeper can read, over real HTTP on SQLite and PostgreSQL: a Free
 * upload of a 20 s video refused on ffprobe's duration with the plan's message; no wasp or
 * hornet data reaching a Free owner's viewers by any route (detail, report CSV, summary CSV,
 * preview, list, comparison, search); the summary CSV's columns for one file and a selection.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { typed } from '../../server/db.ts';
import { engineAvailable } from '../support/engine.ts';
import {
  counts,
  createFile,
  frames,
  grantProduct,
  signedInUser,
  uploadFile,
} from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok) console.warn(`[plan-results] engine unavailable (${ENGINE.why}): upload skipped`);
const FFMPEG = fs.existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : null;

const SUMMARY_HEADER =
  'file,kind,duration_s,frames_analysed,bees,pollen_bees,drones,wasps,hornets,pollen_pct,drones_pct,bee_coverage_pct,model,analysed_at,mean_bees_on_screen,peak_bees_on_screen,quality,bees_in,bees_out,calibration';

/** What an upload left on disk (a refused one must leave nothing). */
function leftovers(server: TestServer): string[] {
  return ['incoming', 'media', 'previews', 'honeybee-previews', 'hornet-previews'].flatMap((d) => {
    const dir = path.join(server.dataDir, d);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => `${d}/${f}`) : [];
  });
}

async function makeVideo(seconds: number): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-plan-'));
  const out = path.join(dir, 'v.mp4');
  await execa(FFMPEG!, [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=5'],
    ...['-t', String(seconds), '-pix_fmt', 'yuv420p', out],
  ]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

/** The id in an upload answer's report URL. */
function idOf(answer: { file: { record: string[] } }): number {
  return Number(/\/api\/files\/(\d+)\//.exec(answer.file.record[3] ?? '')?.[1]);
}

/** files.summary_json as the worker writes it. */
function summaryJson(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    durationS: 0,
    width: 160,
    height: 120,
    framesAnalysed: 1,
    sampleFps: 5,
    beeCoveragePct: 1,
    model: { name: 'm', version: '1', classes: ['bee', 'pollen', 'drone', 'wasp', 'hornet'] },
    timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
    analysedAt: '2026-11-28T10:00:00.000Z',
    ...extra,
  });
}

/** A processed clip with hornets: 4 frames of 2-4 honeybees, a hornet track, both previews. */
async function hornetClip(server: TestServer, userId: number): Promise<number> {
  const name = `${'ab'.repeat(16)}${userId}`.slice(0, 32);
  const previewName = `${name}.jpg`;
  for (const [dir, text] of [
    ['previews', 'FULL PREVIEW with hornet boxes'],
    ['honeybee-previews', 'HONEYBEE PREVIEW'],
    ['hornet-previews', 'HORNET FRAME'],
  ] as const) {
    fs.mkdirSync(path.join(server.dataDir, dir), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, dir, previewName), text);
  }
  const perFrame = [2, 3, 4, 3].map((bee, i) => ({
    index: i,
    timeS: i * 0.2,
    counts: counts({ bee, pollen: i === 2 ? 1 : 0, hornet: 1, wasp: 2 }),
    beeCoveragePct: 1,
  }));
  return createFile(server, userId, {
    original_name: 'entrance.mp4',
    kind: 'video',
    counts: counts({ bee: 1, pollen: 1, hornet: 1, wasp: 2 }),
    frames: perFrame,
    preview_name: previewName,
    summary_json: summaryJson({
      durationS: 0.8,
      framesAnalysed: 4,
      honeybeePreview: true,
      hornetPreviewTimeS: 0.4,
      hornetTracks: [{ hits: [{ timeS: 0, score: 0.9 }] }],
    }),
  });
}

describe.each(DB_KINDS)('plan rules on %s', (kind) => {
  const t = useTestServer(kind);
  const fields = { description: 'Entrance', location: 'Apiary North' };

  it.skipIf(!dbAvailable(kind) || !ENGINE.ok || !FFMPEG)(
    'refuses a 20 s video on Free with the plan message, and queues it for a Researcher',
    async () => {
      const video = await makeVideo(20);
      const free = await signedInUser(t.server);
      const refused = await uploadFile(free.client, { ...fields, name: 'long.mp4', data: video });
      expect(refused.status).toBe(413);
      expect(refused.json<{ message: string }>().message).toBe(
        'The Free Forever plan accepts videos up to 15 seconds; this one is 20.0 seconds. Please trim it to 15 seconds or less, or ask about the Researcher plan for longer videos.',
      );
      expect(leftovers(t.server)).toEqual([]);

      const researcher = await signedInUser(t.server);
      await grantProduct(t.server, researcher.email, 'Researcher', '2999-12-31');
      const accepted = await uploadFile(researcher.client, {
        ...fields,
        name: 'long.mp4',
        data: video,
      });
      expect(accepted.status).toBe(201);
      expect(accepted.json<{ file: { status: string } }>().file.status).toBe('QUEUED');
    },
  );

  it.skipIf(!dbAvailable(kind) || !ENGINE.ok || !FFMPEG)(
    'stores a honeybee-only preview beside the full one when the engine analyses a picture',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-plan-'));
      const png = path.join(dir, 'p.png');
      await execa(FFMPEG!, [
        ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240'],
        ...['-frames:v', '1', png],
      ]);
      const free = await signedInUser(t.server);
      const res = await uploadFile(free.client, {
        ...fields,
        name: 'p.png',
        data: fs.readFileSync(png),
      });
      fs.rmSync(dir, { recursive: true, force: true });
      expect(res.status).toBe(201);
      const id = idOf(res.json<{ file: { record: string[] } }>());
      const { preview_name: name } = await typed<{ preview_name: string }>(
        t.server.app.db('files').where('id', id).first('preview_name'),
      );
      for (const d of ['previews', 'honeybee-previews'])
        expect(fs.existsSync(path.join(t.server.dataDir, d, name))).toBe(true);
      const preview = await fetch(`${t.server.url}/api/files/${id}/preview.jpg`, {
        headers: { cookie: free.client.cookieHeader },
      });
      expect(preview.headers.get('content-type')).toBe('image/jpeg');
      expect([...new Uint8Array(await preview.arrayBuffer()).slice(0, 2)]).toEqual([0xff, 0xd8]);
    },
  );

  it.skipIf(!dbAvailable(kind))('lets no hornet or wasp data reach a Free owner', async () => {
    const free = await signedInUser(t.server);
    const id = await hornetClip(t.server, free.id);
    const other = await createFile(t.server, free.id, {
      original_name: 'other.png',
      counts: counts({ bee: 30, hornet: 4 }),
      frames: frames([2], { bee: 30, hornet: 4 }),
      summary_json: summaryJson(),
    });
    const noResearch = /hornet_|hornets?"?\s*:\s*\d|wasps?"?\s*:\s*\d|score/;

    const detail = await free.client.get(`/api/files/${id}`);
    expect(detail.status).toBe(200);
    const d = detail.json<{
      counts: Record<string, number | null>;
      frames: Array<{ counts: Record<string, number | null> }>;
      summary: Record<string, unknown>;
      counts_are: string;
      on_screen: { mean_honeybees: number; peak_honeybees: number };
    }>();
    expect(d.counts).toMatchObject({ bee: 1, wasp: null, hornet: null });
    expect(d.frames.every((f) => f.counts.hornet === null && f.counts.wasp === null)).toBe(true);
    expect(d.summary).not.toHaveProperty('hornetTracks');
    expect(detail.text).not.toMatch(noResearch);
    expect(d.counts_are).toBe('unique insects (tracks across sampled frames)');
    expect(d.on_screen).toMatchObject({ mean_honeybees: 3.25, peak_honeybees: 5 });

    const report = await free.client.get(`/api/files/${id}/report.csv`);
    expect(report.text.split('\n')[0]).toBe(
      'frame,time_s,bees,pollen_bees,drones,bee_coverage_pct',
    );

    const summary = await free.client.get(`/api/files/summary.csv?ids=${id},${other}`);
    expect(summary.status).toBe(200);
    const [header, row1, row2] = summary.text.split('\n');
    expect(header).toBe(SUMMARY_HEADER);
    const cols = SUMMARY_HEADER.split(',');
    const cell = (row: string | undefined, col: string) => row?.split(',')[cols.indexOf(col)];
    expect([cell(row1, 'wasps'), cell(row1, 'hornets'), cell(row2, 'hornets')]).toEqual([
      '',
      '',
      '',
    ]);

    const preview = await free.client.get(`/api/files/${id}/preview.jpg`);
    expect(preview.text).toBe('HONEYBEE PREVIEW');
    expect((await free.client.get(`/api/files/${id}/hornet.jpg`)).status).toBe(404);

    const list = await free.client.post('/api/get-uploaded-files-list/', {});
    expect(list.text).not.toMatch(noResearch);

    const compared = await free.client.post('/api/compute-groups', {
      group_one: [{ name: 'entrance.mp4', report_url: `/api/files/${id}/report.csv` }],
      group_two: [{ name: 'other.png', report_url: `/api/files/${other}/report.csv` }],
    });
    expect(compared.status).toBe(200);
    expect(compared.text).not.toMatch(/hornet|wasp/i);

    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const search = await admin.client.post('/api/search-results-files', {
      start_date: '2000-01-01',
      end_date: '2999-01-01',
      file_description: '',
      location: '',
    });
    expect(search.status).toBe(200);
    expect(search.text).not.toMatch(/hornet|wasp/i);
    // An administrator sees the file as its Free owner's plan shows it.
    expect((await admin.client.get(`/api/files/${id}/preview.jpg`)).text).toBe('HONEYBEE PREVIEW');
  });

  it.skipIf(!dbAvailable(kind))('shows hornets to a Researcher owner', async () => {
    const researcher = await signedInUser(t.server);
    await grantProduct(t.server, researcher.email, 'Researcher', '2999-12-31');
    const id = await hornetClip(t.server, researcher.id);
    const d = (await researcher.client.get(`/api/files/${id}`)).json<{
      counts: Record<string, number | null>;
    }>();
    expect(d.counts).toMatchObject({ hornet: 1, wasp: 2 });
    const preview = await researcher.client.get(`/api/files/${id}/preview.jpg`);
    expect(preview.text).toBe('FULL PREVIEW with hornet boxes');
    expect((await researcher.client.get(`/api/files/${id}/hornet.jpg`)).text).toBe('HORNET FRAME');
    const summary = await researcher.client.get(`/api/files/${id}/summary.csv`);
    expect(summary.headers.get('content-disposition')).toContain('entrance-summary.csv');
    const [header, row] = summary.text.split('\n');
    expect(header).toBe(SUMMARY_HEADER);
    // 4 frames of 2+0, 3+0, 4+1, 3+0 honeybees: mean 3.25, peak 5; no quality grade yet, no
    // entrance set (empty bees_in, bees_out), no calibration.
    expect(row).toBe(
      'entrance.mp4,video,0.800,4,1,1,0,2,1,50.00,0.00,1.00,m@1,2026-11-28T10:00:00.000Z,3.25,5,,,,',
    );
  });

  it.skipIf(!dbAvailable(kind))(
    'refuses summaries of unknown, foreign or unready files',
    async () => {
      const a = await signedInUser(t.server);
      const b = await signedInUser(t.server);
      const mine = await createFile(t.server, a.id, { summary_json: summaryJson() });
      const theirs = await createFile(t.server, b.id);
      const queued = await createFile(t.server, a.id, { status: 'QUEUED' });
      expect((await a.client.get(`/api/files/summary.csv?ids=${mine},${theirs}`)).status).toBe(404);
      expect((await a.client.get(`/api/files/summary.csv?ids=x`)).status).toBe(400);
      expect((await a.client.get(`/api/files/${queued}/summary.csv`)).status).toBe(409);
      expect((await a.client.get(`/api/files/summary.csv?ids=${mine}`)).status).toBe(200);
    },
  );
});
