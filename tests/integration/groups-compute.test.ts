/**
 * POST /api/compute-groups over real HTTP on SQLite and PostgreSQL, with processed files inserted
 * straight into the database with known counts, so every number is checked by hand.
 */
import { describe, expect, it } from 'vitest';
import { DB_KINDS, dbAvailable, useTestServer } from './server-helpers.ts';
import { counts, frames, insertFile, userWithLocations } from './files-helpers.ts';

interface Result {
  bee_group_one_percent: number | null;
  bee_group_two_percent: number | null;
  pollen_group_one_percent: number | null;
  pollen_group_two_percent: number | null;
  drones_group_one_percent: number | null;
  drones_group_two_percent: number | null;
  confidence_intervals: Record<string, { low: number; high: number } | null>;
  significance: Record<string, { z: number; p_value: number; significant: boolean } | null>;
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
    'computes the six fields, intervals and tests from known counts',
    async () => {
      const { client, id, email } = await userWithLocations(t.server);
      // Group one: two files, 100 honeybees, 30 pollen, 10 drones; coverage frames 10, 20, 30.
      const a1 = await insertFile(t.server, id, {
        original_name: 'a1.mp4',
        kind: 'video',
        counts: counts({ bee: 40, pollen: 20, drone: 4 }),
        frames: frames([10, 20]),
      });
      const a2 = await insertFile(t.server, id, {
        original_name: 'a2.png',
        counts: counts({ bee: 20, pollen: 10, drone: 6 }),
        frames: frames([30]),
      });
      // Group two: 100 honeybees, 15 pollen, 5 drones; coverage 5, 5. Referenced by name.
      await insertFile(t.server, id, {
        original_name: 'b1.png',
        counts: counts({ bee: 80, pollen: 15, drone: 5 }),
        frames: frames([5, 5]),
      });
      const res = await client.post('/api/compute-groups', {
        email_address: email,
        group_one: [rec(a1), rec(a2)],
        group_two: [{ ...rec(0, 'b1.png'), report_url: '' }],
      });
      expect(res.status).toBe(200);
      const r = res.json<Result>();
      expect(r.bee_group_one_percent).toBeCloseTo(20, 10);
      expect(r.bee_group_two_percent).toBeCloseTo(5, 10);
      expect(r.pollen_group_one_percent).toBeCloseTo(30, 10);
      expect(r.pollen_group_two_percent).toBeCloseTo(15, 10);
      expect(r.drones_group_one_percent).toBeCloseTo(10, 10);
      expect(r.drones_group_two_percent).toBeCloseTo(5, 10);
      // Coverage CI over frames 10, 20, 30: 20 +- 1.96 * 10 / sqrt(3) = [8.68, 31.32].
      expect(r.confidence_intervals.bee_group_one?.low).toBeCloseTo(8.684, 2);
      expect(r.confidence_intervals.bee_group_one?.high).toBeCloseTo(31.316, 2);
      // Wilson 30 of 100: centre 0.30740, half 0.08845 -> [21.90, 39.58].
      expect(r.confidence_intervals.pollen_group_one?.low).toBeCloseTo(21.9, 1);
      expect(r.confidence_intervals.pollen_group_one?.high).toBeCloseTo(39.585, 2);
      // z-test 30/100 vs 15/100: z 2.54, p 0.0111; drones 10/100 vs 5/100: p 0.1795.
      expect(r.significance.pollen?.p_value).toBeCloseTo(0.0111, 3);
      expect(r.significance.pollen?.significant).toBe(true);
      expect(r.significance.drones?.p_value).toBeCloseTo(0.1795, 3);
      expect(r.significance.drones?.significant).toBe(false);

      const stored = await t.server.app.db('comparisons').where('user_id', id);
      expect(stored).toHaveLength(1);
    },
  );

  it.skipIf(!dbAvailable(kind))('answers null where a ratio is undefined', async () => {
    const { client, id } = await userWithLocations(t.server);
    const a = await insertFile(t.server, id, { counts: counts(), frames: frames([0]) });
    const b = await insertFile(t.server, id, {
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
    expect(r.significance.drones).toBeNull();
  });

  it.skipIf(!dbAvailable(kind))(
    'refuses empty groups, unprocessed, unknown and other users\u2019 files',
    async () => {
      const owner = await userWithLocations(t.server);
      const other = await userWithLocations(t.server);
      const mine = await insertFile(t.server, owner.id);
      const queued = await insertFile(t.server, owner.id, { status: 'QUEUED', kind: 'video' });
      const theirs = await insertFile(t.server, other.id, { original_name: 'secret.png' });

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
      const owner = await userWithLocations(t.server);
      const admin = await userWithLocations(t.server, { role: 'ADMIN' });
      const a = await insertFile(t.server, owner.id, { counts: counts({ bee: 1 }) });
      const b = await insertFile(t.server, owner.id, { counts: counts({ pollen: 1 }) });
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
