/**
 * Issue 54, item 5, over real HTTP on SQLite and PostgreSQL with the real engine and ffmpeg:
 * concurrent first requests for one frame make its still once (the stills module's own count of
 * ffmpeg + detector runs), stills made are limited per user (429 with Retry-After; a still made
 * already opens without counting), and deleting the file deletes its stills from the disk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import { stillName, stillsDir, stillsMade } from '../../server/corrections/stills.ts';
import { typed } from '../../server/db.ts';
import type { FileRow } from '../../server/files/file-row.ts';
import { engineAvailable } from '../support/engine.ts';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const engine = await engineAvailable();
if (!engine.ok) console.warn(`[frame-stills] engine unavailable, tests skipped: ${engine.why}`);

let photo: Buffer;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-stills-'));
  const { file } = await writeBeeImage(path.join(dir, 'bees.png'), randomBeeScene({ count: 3 }));
  photo = fs.readFileSync(file);
});

describe.each(DB_KINDS)('frame stills on %s', (kind) => {
  // One still a user per window, so the second file's frame is over the limit.
  const t = useTestServer(kind, {
    env: { WORKER_CONCURRENCY: '0', STILLS_RATE_LIMIT_MAX: '1' },
  });
  const run = it.skipIf(!dbAvailable(kind) || !engine.ok);

  /** A user with two photos; the first one's row and the path its still will have. */
  async function twoPhotos() {
    const owner = await signedInUser(t.server);
    const add = () =>
      createFile(t.server, owner.id, {
        media: photo,
        counts: counts({ bee: 3 }),
        frames: frames([1], { bee: 3 }),
      });
    const [first, second] = [await add(), await add()];
    const row = await typed<FileRow>(t.server.app.db('files').where('id', first).first());
    const still = path.join(stillsDir(t.server.dataDir), stillName(row, 0));
    return { owner, first, second, still };
  }

  run('concurrent first requests for one frame make its still once', async () => {
    const { owner, first, still } = await twoPhotos();
    const before = stillsMade();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => owner.client.get(`/api/files/${first}/frames/0`)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(stillsMade() - before).toBe(1);
    expect(fs.existsSync(still)).toBe(true);
    // Made already: opening it again, or its picture, costs nothing.
    expect((await owner.client.get(`/api/files/${first}/frames/0/still.jpg`)).status).toBe(200);
    expect((await owner.client.get(`/api/files/${first}/frames/0`)).status).toBe(200);
    expect(stillsMade() - before).toBe(1);
  });

  run('stills made are limited per user: 429 with Retry-After, made ones still open', async () => {
    const { owner, first, second } = await twoPhotos();
    expect((await owner.client.get(`/api/files/${first}/frames/0`)).status).toBe(200);
    const before = stillsMade();
    const over = await owner.client.get(`/api/files/${second}/frames/0`);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.json<{ message: string }>().message).toMatch(
      /^You have opened 1 new frames in the last 15 minutes\. Please wait \d+ minutes? and try again/,
    );
    expect((await owner.client.get(`/api/files/${second}/frames/0/still.jpg`)).status).toBe(429);
    expect(stillsMade()).toBe(before);
    expect((await owner.client.get(`/api/files/${first}/frames/0`)).status).toBe(200);
    // Another user's limit is their own.
    const other = await signedInUser(t.server);
    const theirs = await createFile(t.server, other.id, {
      media: photo,
      counts: counts({ bee: 3 }),
      frames: frames([1], { bee: 3 }),
    });
    expect((await other.client.get(`/api/files/${theirs}/frames/0`)).status).toBe(200);
  });

  run("DELETE /api/files/:id removes the file's stills from the disk", async () => {
    const { owner, first, still } = await twoPhotos();
    expect((await owner.client.get(`/api/files/${first}/frames/0`)).status).toBe(200);
    expect(fs.existsSync(still)).toBe(true);
    const deleted = await owner.client.request('DELETE', `/api/files/${first}`);
    expect(deleted.status).toBe(200);
    expect(fs.existsSync(still)).toBe(false);
    expect(fs.existsSync(still.replace(/\.jpg$/, '.json'))).toBe(false);
  });
});
