/**
 * `hivesight dataset export` (issue 46) on a real server's database and DATA_DIR: a consenting
 * user's corrected photo is written as a YOLO dataset with its manifest; once consent is revoked,
 * a new export leaves it out; `--reviewed-only` keeps only frames an admin reviewed; a used
 * folder is refused; and `hivesight eval` scores the shipped model on the export unchanged.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import { exportDataset } from '../../server/corrections/export.ts';
import { SITE_KEY_FILE, siteHash, siteKey } from '../../server/corrections/site-key.ts';
import type { Manifest } from '../../server/corrections/export.ts';
import { engineAvailable } from '../support/engine.ts';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const engine = await engineAvailable();
if (!engine.ok) console.warn(`[dataset export] engine unavailable, tests skipped: ${engine.why}`);

let photo: Buffer;
let truth: Array<{ x: number; y: number; width: number; height: number }>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-export-'));
beforeAll(async () => {
  const scene = randomBeeScene({ count: 5, seed: 3 });
  const written = await writeBeeImage(path.join(tmp, 'bees.png'), scene);
  photo = fs.readFileSync(written.file);
  truth = written.boxes;
});

const readManifest = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

describe.each(DB_KINDS)('dataset export on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind) || !engine.ok);

  run('exports consenting users\u2019 frames only, and eval runs on the export', async () => {
    const owner = await signedInUser(t.server, { locations: ['Apiary North'] });
    const id = await createFile(t.server, owner.id, {
      media: photo,
      location: 'Apiary North',
      counts: counts({ bee: 1 }),
      frames: frames([1], { bee: 1 }),
    });
    expect((await owner.client.get(`/api/files/${id}/frames/0`)).status).toBe(200);
    const labels = truth.map((box, i) => ({ cls: i === 0 ? 'pollen' : 'bee', box }));
    const saved = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels },
    });
    expect(saved.status).toBe(200);
    const exportTo = (name: string, reviewedOnly = false) =>
      exportDataset(t.server.app.db, {
        dataDir: t.server.dataDir,
        outDir: path.join(tmp, `${kind}-${name}`),
        reviewedOnly,
        now: new Date(),
      }).then((r) => r.manifest);

    // No consent yet: nothing of theirs.
    expect((await exportTo('before')).frames.filter((f) => f.boxes === 5)).toHaveLength(0);

    const consent = await owner.client.post('/api/account/training-consent', { consent: true });
    const consentAt = consent.json<{ consent_at: string }>().consent_at;
    const on = await exportTo('on');
    const key = await siteKey(t.server.dataDir);
    const mine = on.frames.filter((f) => f.site === siteHash(key, owner.id, 'Apiary North'));
    expect(mine).toHaveLength(1);
    const frame = mine[0]!;
    expect(frame).toMatchObject({ width: 640, height: 480, boxes: 5, reviewed: false, time_s: 0 });
    expect(new Date(frame.consent_at).getTime()).toBe(new Date(consentAt).getTime());
    expect(frame.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(frame.date_from).toBe('upload');
    const dir = path.join(tmp, `${kind}-on`);
    expect(JSON.stringify(on)).not.toContain('Apiary North');
    // Keyed (issue 54): the installation's key file, private, and no guessable sha256.
    expect(fs.statSync(path.join(t.server.dataDir, SITE_KEY_FILE)).mode & 0o777).toBe(0o600);
    const guess = createHash('sha256').update(`hivesight-site\n${owner.id}\napiary north`);
    expect(frame.site.startsWith(guess.digest('hex').slice(0, 12))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'classes.txt'), 'utf8').split('\n')[1]).toBe(
      'worker-bee-pollen',
    );
    const lines = fs.readFileSync(path.join(dir, frame.label), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(5);
    const b = truth[0]!;
    // Pollen is class 1; boxes normalised (the stored ones are rounded to 0.1 px).
    const [cls, ...yolo] = lines[0]!.split(' ').map(Number);
    expect(cls).toBe(1);
    const want = [
      (b.x + b.width / 2) / 640,
      (b.y + b.height / 2) / 480,
      b.width / 640,
      b.height / 480,
    ];
    yolo.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 3));
    expect(fs.statSync(path.join(dir, frame.image)).size).toBeGreaterThan(1000);

    // Only reviewed frames: not this one until an admin checks it.
    expect(
      (await exportTo('reviewed-before', true)).frames.filter((f) => f.boxes === 5),
    ).toHaveLength(0);
    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const review = await admin.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: saved.json<{ labels: unknown }>().labels },
    });
    expect(review.status).toBe(200);
    expect((await exportTo('reviewed-after', true)).frames.map((f) => f.image)).toContain(
      frame.image,
    );

    // A used folder is refused.
    await expect(exportTo('on')).rejects.toThrow(/is not empty/);

    // Revoked: later exports leave the frame out.
    await owner.client.post('/api/account/training-consent', { consent: false });
    const off = await exportTo('off');
    expect(off.frames.map((f) => f.image)).not.toContain(frame.image);
  });

  // The CLI opens the server's SQLite file itself (PostgreSQL tests use a private schema).
  it.skipIf(kind !== 'sqlite' || !engine.ok)(
    'hivesight dataset export writes the frame and hivesight eval scores the export',
    async () => {
      const owner = await signedInUser(t.server, { locations: ['Orchard Hill'] });
      const id = await createFile(t.server, owner.id, { media: photo, location: 'Orchard Hill' });
      await owner.client.get(`/api/files/${id}/frames/0`);
      const saved = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
        json: { labels: truth.map((box) => ({ cls: 'bee', box })) },
      });
      expect(saved.status).toBe(200);
      await owner.client.post('/api/account/training-consent', { consent: true });
      const out = path.join(tmp, 'cli-export');
      const env = { NO_COLOR: '1', DATA_DIR: t.server.dataDir, DATABASE_URL: '' };
      const exported = await execa(
        'node',
        [CLI, 'dataset', 'export', '--out', out, '--data-dir', t.server.dataDir],
        { reject: false, env, extendEnv: true, timeout: 120_000 },
      );
      expect(exported.stderr).toBe('');
      expect(exported.exitCode).toBe(0);
      expect(exported.stdout).toMatch(/^Wrote \d+ corrected frames? from \d+ sites? to /);
      const manifest = readManifest(out);
      // Another process (the CLI) read the same key: the same site as the test process computes.
      const key = await siteKey(t.server.dataDir);
      expect(manifest.frames.some((f) => f.site === siteHash(key, owner.id, 'Orchard Hill'))).toBe(
        true,
      );
      const again = await execa('node', [CLI, 'dataset', 'export', '--out', out], {
        reject: false,
        env,
        extendEnv: true,
        timeout: 120_000,
      });
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toContain('is not empty');

      const scored = await execa('node', [CLI, 'eval', out, '--json'], {
        reject: false,
        env: { NO_COLOR: '1' },
        extendEnv: true,
        timeout: 300_000,
      });
      expect(scored.stderr).not.toMatch(/error/i);
      expect(scored.exitCode).toBe(0);
      const report = JSON.parse(scored.stdout) as Record<string, unknown>;
      expect(JSON.stringify(report)).toContain('bee');
    },
    400_000,
  );
});
