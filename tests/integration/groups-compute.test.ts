/**
 * POST /api/compute-groups over real HTTP on SQLite and PostgreSQL, with processed files inserted
 * straight into the database with known counts, so every number is checked by hand.
 */
import { describe, expect, it } from 'vitest';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

interface Result {
  bee_group_one_percent: number | null;
  bee_group_two_percent: number | null;
  pollen_group_one_percent: number | null;
  pollen_group_two_percent: number | null;
  drones_group_one_percent: number | null;
  drones_group_two_percent: number | null;
  confidence_intervals: Record<string, { low: number; high: number } | null>;
  significance: Record<
    string,
    {
      p_value: number | null;
      p_text: string | null;
      significant: boolean | null;
      verdict: string;
    } | null
  >;
  totals: Record<
    string,
    { files: number; honeybees: number; pollen: number | null; drones: number | null }
  >;
  message?: string;
}

const rec = (id: number, name = 'f') => ({
  name,
  status: 'PROCESSED',
  video_url: '',
  report_url: `/api/files/${id}/report.csv`,
  location: 'Apiary North',
  status_time: '',
});

describe.each(DB_KINDS)('compute-groups on %s', (kind) => {
  const t = useTestServer(kind);

  it.skipIf(!dbAvailable(kind))(
    'computes the six fields on files and refuses a verdict on too few insects',
    async () => {
      const { client, id, email } = await signedInUser(t.server);
      // Group one: a photo at 19.5 % coverage and a 79-frame video at 0.1 %: files are the
      // unit, so the group reads 9.8 %, not the 0.3 % a mean over frames gave.
      const photo = await createFile(t.server, id, {
        original_name: 'a1.png',
        counts: counts({ bee: 1, pollen: 0 }),
        frames: frames([19.5]),
      });
      const video = await createFile(t.server, id, {
        original_name: 'a2.mp4',
        kind: 'video',
        counts: counts({ bee: 25, pollen: 1 }),
        frames: frames(Array.from({ length: 79 }, () => 0.1)),
      });
      // Group two: 4 insects, 3 with pollen (75 %). Referenced by name.
      await createFile(t.server, id, {
        original_name: 'b1.png',
        counts: counts({ bee: 1, pollen: 3 }),
        frames: frames([5]),
      });
      const b2 = await createFile(t.server, id, { counts: counts(), frames: frames([1]) });
      const res = await client.post('/api/compute-groups', {
        email_address: email,
        group_one: [rec(photo), rec(video)],
        group_two: [{ ...rec(0, 'b1.png'), report_url: '' }, rec(b2)],
      });
      expect(res.status).toBe(200);
      const r = res.json<Result>();
      expect(r.bee_group_one_percent).toBeCloseTo(9.8, 10);
      expect(r.bee_group_two_percent).toBeCloseTo(3, 10);
      expect(r.pollen_group_one_percent).toBeCloseTo((1 / 27) * 100, 10);
      expect(r.pollen_group_two_percent).toBe(75);
      expect(r.drones_group_one_percent).toBe(0);
      expect(r.totals.group_two).toEqual({ files: 2, honeybees: 4, pollen: 3, drones: 0 });
      for (const metric of ['bee', 'pollen', 'drones']) {
        expect(r.significance[metric]).toEqual({
          p_value: null,
          p_text: null,
          significant: null,
          verdict: 'too few insects to compare',
        });
      }
      // Intervals resample files: between the two files' own figures.
      expect(r.confidence_intervals.bee_group_one?.low).toBeCloseTo(0.1, 5);
      expect(r.confidence_intervals.bee_group_one?.high).toBeCloseTo(19.5, 5);

      const stored = await t.server.app.db('comparisons').where('user_id', id);
      expect(stored).toHaveLength(1);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'gives a verdict with a p-value when both groups have enough files and honeybees',
    async () => {
      const { client, id } = await signedInUser(t.server);
      const group = async (pollen: number) => {
        const ids: number[] = [];
        for (let i = 0; i < 6; i++) {
          ids.push(
            await createFile(t.server, id, {
              counts: counts({ bee: 20 + i, pollen, drone: 1 }),
              frames: frames([2 + i]),
            }),
          );
        }
        return ids.map((n) => rec(n));
      };
      const res = await client.post('/api/compute-groups', {
        group_one: await group(1),
        group_two: await group(12),
      });
      const r = res.json<Result>();
      expect(r.totals.group_one?.honeybees).toBeGreaterThanOrEqual(30);
      expect(r.significance.pollen?.significant).toBe(true);
      expect(r.significance.pollen?.p_text).toMatch(/^p (< 0\.001|= 0\.0\d+)$/);
      expect(r.significance.pollen?.verdict).toBe(
        `Significant difference (${r.significance.pollen?.p_text})`,
      );
      expect(r.significance.bee?.significant).toBe(false);
      expect(r.significance.bee?.verdict).toMatch(/^No significant difference \(p = /);
    },
  );

  it.skipIf(!dbAvailable(kind))('answers null where a ratio is undefined', async () => {
    const { client, id } = await signedInUser(t.server);
    const a = await createFile(t.server, id, { counts: counts(), frames: frames([0]) });
    const b = await createFile(t.server, id, {
      counts: counts({ bee: 3, drone: 1 }),
      frames: frames([2]),
    });
    const r = (
      await client.post('/api/compute-groups', { group_one: [rec(a)], group_two: [rec(b)] })
    ).json<Result>();
    expect(r.pollen_group_one_percent).toBeNull();
    expect(r.drones_group_one_percent).toBeNull();
    expect(r.bee_group_one_percent).toBe(0);
    expect(r.drones_group_two_percent).toBe(25);
    expect(r.significance.drones?.verdict).toBe('too few insects to compare');
  });

  it.skipIf(!dbAvailable(kind))(
    'refuses empty groups, unprocessed, unknown and other users\u2019 files',
    async () => {
      const owner = await signedInUser(t.server);
      const other = await signedInUser(t.server);
      const mine = await createFile(t.server, owner.id);
      const queued = await createFile(t.server, owner.id, { status: 'QUEUED', kind: 'video' });
      const theirs = await createFile(t.server, other.id, { original_name: 'secret.png' });

      let res = await owner.client.post('/api/compute-groups', {
        group_one: [rec(mine)],
        group_two: [],
      });
      expect(res.status).toBe(400);
      expect(res.json<Result>().message).toBe(
        'Select at least one file in each group before submitting.',
      );

      res = await owner.client.post('/api/compute-groups', {
        group_one: [rec(mine)],
        group_two: [rec(queued)],
      });
      expect(res.status).toBe(400);
      expect(res.json<Result>().message).toMatch(/not processed/);

      res = await owner.client.post('/api/compute-groups', {
        group_one: [rec(mine)],
        group_two: [rec(theirs)],
      });
      expect(res.status).toBe(404);
      res = await owner.client.post('/api/compute-groups', {
        group_one: [rec(mine)],
        group_two: [{ ...rec(0, 'secret.png'), report_url: '' }],
      });
      expect(res.status).toBe(404);
      res = await owner.client.post('/api/compute-groups', {
        group_one: [rec(mine)],
        group_two: [rec(999999)],
      });
      expect(res.status).toBe(404);
      // The e-mail in the body selects nothing: naming the other user does not reach their file.
      res = await owner.client.post('/api/compute-groups', {
        email_address: other.email,
        group_one: [rec(theirs)],
        group_two: [rec(mine)],
      });
      expect(res.status).toBe(404);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'lets an administrator compare anyone\u2019s files; 401 when signed out',
    async () => {
      const owner = await signedInUser(t.server);
      const admin = await signedInUser(t.server, { role: 'ADMIN' });
      const a = await createFile(t.server, owner.id, { counts: counts({ bee: 1 }) });
      const b = await createFile(t.server, owner.id, { counts: counts({ pollen: 1 }) });
      const res = await admin.client.post('/api/compute-groups', {
        group_one: [rec(a)],
        group_two: [rec(b)],
      });
      expect(res.status).toBe(200);
      expect(res.json<Result>().pollen_group_two_percent).toBe(100);
      const anon = await t.server
        .client()
        .post('/api/compute-groups', { group_one: [rec(a)], group_two: [rec(b)] });
      expect(anon.status).toBe(401);
    },
  );
});
