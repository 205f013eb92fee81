/**
 * A location's calibration (issue 58) on SQLite and PostgreSQL, with the real engine in the
 * in-process worker: fewer than 5 corrected frames (or one file) cannot be calibrated; the
 * owner's request is fitted by the worker, never in the request; the page shows the gain with
 * and without; turned on, a later analysis of the owner's file at that location runs with it and says so,
 * while another user's file at a location of the same name does not; turned off, it is not
 * used; the export is a calibration the CLI reads; a picture uploaded while it was off is
 * listed, and counted again with it through the worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCalibration } from '../../engine/vocabulary.ts';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import { typed } from '../../server/db.ts';
import { enqueueJob } from '../../server/queue/jobs-repository.ts';
import { waitFor } from '../support/wait.ts';
import { engineAvailable } from '../support/engine.ts';
import { createFile, signedInUser, uploadFile } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

const engine = await engineAvailable();
if (!engine.ok) console.warn(`[calibration] engine unavailable, tests skipped: ${engine.why}`);

interface View {
  corrected_frames: number;
  why_not: string | null;
  state: string;
  applied: boolean;
  enabled: boolean;
  label: string | null;
  sentence: string | null;
  gain: { frames: number; significant: boolean } | null;
}

/** Five corrected stills of busy synthetic boards at `location`, from three files. */
async function correctFrames(server: TestServer, ownerId: number, location: string, n = 5) {
  const stills = path.join(server.dataDir, 'stills');
  fs.mkdirSync(stills, { recursive: true });
  for (let i = 0; i < n; i += 1) {
    const fileId = await createFile(server, ownerId, { location, original_name: `f${i % 3}.png` });
    const name = `${String(fileId).padStart(8, '0')}${'c'.repeat(24)}.jpg`;
    await writeBeeImage(
      path.join(stills, name),
      randomBeeScene({ count: 10, seed: 40 + i, width: 800, height: 500 }),
      'jpeg',
    );
    const now = new Date().toISOString();
    // The beekeeper says one insect is there: whatever the model counts on these boards, a
    // threshold that keeps fewer is the gain.
    await server.app.db('corrected_frames').insert({
      file_id: fileId,
      frame_index: 0,
      time_s: 0,
      still_name: name,
      width: 800,
      height: 500,
      labels_json: JSON.stringify([{ cls: 'bee', box: { x: 10, y: 10, width: 60, height: 30 } }]),
      model_json: '[]',
      author_id: ownerId,
      reviewed: false,
      created_at: now,
      updated_at: now,
    });
  }
}

async function queuePhoto(server: TestServer, userId: number, location: string, media: Buffer) {
  const id = await createFile(server, userId, {
    location,
    status: 'QUEUED',
    counts: null,
    frames: null,
    media,
  });
  await enqueueJob(server.app.db, { fileId: id, priority: 0, maxAttempts: 2, now: new Date() });
  return id;
}

const processed = (server: TestServer, id: number) =>
  waitFor(
    `file ${id} processed`,
    async () => {
      const row = await typed<{ status: string; summary_json: string | null } | undefined>(
        server.app.db('files').where({ id }).first('status', 'summary_json'),
      );
      return row && (row.status === 'PROCESSED' || row.status === 'FAILED') ? { id, ...row } : null;
    },
    240_000,
  );

describe.each(DB_KINDS)('calibration on %s', (kind) => {
  const t = useTestServer(kind, { worker: true });
  const run = it.skipIf(!dbAvailable(kind) || !engine.ok);

  run('is fitted by the worker and used for the owner’s later files only', async () => {
    const owner = await signedInUser(t.server, { locations: ['Apiary North'] });
    const stranger = await signedInUser(t.server, { locations: ['Apiary North'] });
    const location = (await owner.client.get('/api/locations')).json<{
      locations: Array<{ id: number; name: string }>;
    }>().locations[0]!;
    const url = `/api/locations/${location.id}/calibration`;

    await correctFrames(t.server, owner.id, 'Apiary North', 4);
    const few = (await owner.client.get(url)).json<View>();
    expect(few).toMatchObject({ corrected_frames: 4, state: 'none', applied: false });
    expect(few.why_not).toMatch(/at least 5 corrected frames/);
    expect((await owner.client.post(url, {})).status).toBe(409);

    await correctFrames(t.server, owner.id, 'Apiary North', 1);
    const asked = await owner.client.post(url, {});
    expect(asked.status).toBe(202);
    expect(asked.json<View>().state).toBe('queued');
    expect((await stranger.client.get(url)).status).toBe(404);

    const fitted = await waitFor(
      'the calibration fitted',
      async () => {
        const v = (await owner.client.get(url)).json<View>();
        return v.state === 'ready' || v.state === 'failed' ? v : null;
      },
      240_000,
    );
    expect(fitted.state, JSON.stringify(fitted)).toBe('ready');
    expect(fitted.gain?.frames).toBe(5);
    expect(fitted.sentence).toMatch(
      /^Leave one frame out on 5 corrected frames, the count error is \d+ % without the calibration and \d+ % with it/,
    );
    expect(fitted.gain?.significant, fitted.sentence ?? '').toBe(true);
    // Off until its owner turns it on (experiment 013).
    expect(fitted).toMatchObject({ enabled: false, applied: false });
    const on = await owner.client.request('PATCH', url, { json: { enabled: true } });
    expect(on.json<View>()).toMatchObject({ enabled: true, applied: true });
    const today = new Date().toISOString().slice(0, 10);
    expect(fitted.label).toBe(`Calibrated for Apiary North on 5 corrected frames (${today})`);

    const exported = await owner.client.get(`${url}.json`);
    expect(exported.status).toBe(200);
    const calibration = parseCalibration(JSON.parse(exported.text));
    expect(calibration.location).toBe('Apiary North');

    const photo = fs.readFileSync(
      (
        await writeBeeImage(
          path.join(t.server.dataDir, 'new.png'),
          randomBeeScene({ count: 10, seed: 99, width: 800, height: 500 }),
        )
      ).file,
    );
    const mine = await processed(
      t.server,
      await queuePhoto(t.server, owner.id, 'Apiary North', photo),
    );
    const theirs = await processed(
      t.server,
      await queuePhoto(t.server, stranger.id, 'Apiary North', photo),
    );
    expect(mine.status).toBe('PROCESSED');
    expect(theirs.status).toBe('PROCESSED');
    const summaryOf = (row: { summary_json: string | null }) =>
      JSON.parse(row.summary_json ?? '{}') as { calibration?: { label: string } };
    expect(summaryOf(mine).calibration?.label).toBe(fitted.label);
    expect(summaryOf(theirs).calibration).toBeUndefined();

    // Turned off: later analyses run without it.
    const off = await owner.client.request('PATCH', url, { json: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.json<View>()).toMatchObject({ enabled: false, applied: false });
    const after = await processed(
      t.server,
      await queuePhoto(t.server, owner.id, 'Apiary North', photo),
    );
    expect(summaryOf(after).calibration).toBeUndefined();

    // A picture uploaded with it off, then counted again with it once on: the picture, analysed
    // in its upload's request, gets its first job; the page lists what would change.
    const upload = await uploadFile(owner.client, {
      name: 'upload.png',
      data: photo,
      location: 'Apiary North',
    });
    expect(upload.status).toBe(201);
    const uploaded = upload.json<{ file: { id: number } }>().file.id;
    await owner.client.request('PATCH', url, { json: { enabled: true } });
    const listed = (await owner.client.get(url)).json<{
      recount: { files: Array<{ file_id: number }> };
    }>().recount.files;
    expect(listed.map((f) => f.file_id)).toEqual(expect.arrayContaining([uploaded, after.id]));
    expect(listed.map((f) => f.file_id)).not.toContain(mine.id);
    const again = `/api/files/${uploaded}/count-again/calibration`;
    expect((await stranger.client.post(again, {})).status).toBe(404);
    // Two requests at once for a picture without a job: one queues it, the other hears so.
    const both = await Promise.all([owner.client.post(again, {}), owner.client.post(again, {})]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(both.find((r) => r.status === 409)?.json<{ message: string }>().message).toBe(
      'This file is already waiting to be counted again. Try again once that count is done.',
    );
    const recounted = await processed(t.server, uploaded);
    expect(summaryOf(recounted).calibration?.label).toBe(fitted.label);
    const twice = await owner.client.post(again, {});
    expect(twice.status).toBe(409);
    expect(twice.json<{ message: string }>().message).toBe(
      'This file was already counted with the current calibration.',
    );
  });
});
