/**
 * The durable queue against real SQLite and PostgreSQL: priority order, exclusive concurrent
 * claims, lease expiry and retry, lost leases, max attempts, and results written once.
 */
import { describe, expect, it } from 'vitest';
import {
  claimJob,
  completeJob,
  enqueueJob,
  extendLease,
  failAttempt,
  failExhaustedJobs,
  PRIORITY,
} from '../../server/queue/jobs-repository.ts';
import type { FileRow } from '../../server/files/file-row.ts';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const T0 = new Date('2026-01-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(DB_KINDS)('job queue on %s', (kind) => {
  const t = useTestServer(kind);

  async function queuedJob(priority: number, maxAttempts = 3): Promise<number> {
    const { id } = await signedInUser(t.server);
    const fileId = await createFile(t.server, id, {
      kind: 'video',
      status: 'QUEUED',
      counts: null,
      frames: null,
    });
    await enqueueJob(t.server.app.db, { fileId, priority, maxAttempts, now: T0 });
    return fileId;
  }
  const drain = async () => {
    await t.server.app.db('jobs').update({ state: 'done' });
  };
  const fileRow = async (id: number) =>
    (await t.server.app.db('files').where('id', id).first()) as FileRow;

  it.skipIf(!dbAvailable(kind))('claims by priority, then age', async () => {
    await drain();
    const free = await queuedJob(PRIORITY.free);
    const researcher = await queuedJob(PRIORITY.researcher);
    const premium = await queuedJob(PRIORITY.premium);
    const free2 = await queuedJob(PRIORITY.free);
    const db = t.server.app.db;
    const order: number[] = [];
    for (;;) {
      const job = await claimJob(db, { workerId: 'w', now: T0, leaseMs: 60_000 });
      if (!job) break;
      order.push(job.file_id);
      expect(job.attempts).toBe(1);
    }
    expect(order).toEqual([researcher, premium, free, free2]);
  });

  it.skipIf(!dbAvailable(kind))(
    'within a priority, claims round-robin by owner, counting their running jobs',
    async () => {
      await drain();
      const db = t.server.app.db;
      const owner = async () => (await signedInUser(t.server)).id;
      const queueFor = async (userId: number, priority: number) => {
        const fileId = await createFile(t.server, userId, {
          kind: 'video',
          status: 'QUEUED',
          counts: null,
          frames: null,
        });
        await enqueueJob(db, { fileId, priority, maxAttempts: 3, now: T0 });
        return fileId;
      };
      const [ann, bob, cat] = [await owner(), await owner(), await owner()];
      const a: number[] = [];
      for (let i = 0; i < 5; i += 1) a.push(await queueFor(ann, PRIORITY.free));
      const b = [await queueFor(bob, PRIORITY.free), await queueFor(bob, PRIORITY.free)];
      const c = await queueFor(cat, PRIORITY.premium);
      const order: number[] = [];
      for (;;) {
        const job = await claimJob(db, { workerId: 'w', now: T0, leaseMs: 60_000 });
        if (!job) break;
        order.push(job.file_id);
      }
      expect(order).toEqual([c, a[0], b[0], a[1], b[1], a[2], a[3], a[4]]);
    },
  );

  it.skipIf(!dbAvailable(kind))('never hands one job to two concurrent claimers', async () => {
    await drain();
    const ids = await Promise.all(Array.from({ length: 6 }, () => queuedJob(0)));
    const db = t.server.app.db;
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        claimJob(db, { workerId: `w${i}`, now: T0, leaseMs: 60_000 }),
      ),
    );
    const got = claims.flatMap((c) => (c ? [c.file_id] : []));
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual([...ids].sort());
  });

  it.skipIf(!dbAvailable(kind))(
    'retries a job whose lease expired; the old lease can neither extend nor complete',
    async () => {
      await drain();
      const fileId = await queuedJob(0);
      const db = t.server.app.db;
      const first = await claimJob(db, { workerId: 'crashed', now: T0, leaseMs: 1000 });
      expect(first?.file_id).toBe(fileId);
      expect(await claimJob(db, { workerId: 'b', now: at(500), leaseMs: 1000 })).toBeNull();
      const second = await claimJob(db, { workerId: 'b', now: at(2000), leaseMs: 1000 });
      expect(second?.file_id).toBe(fileId);
      expect(second?.attempts).toBe(2);
      if (!first || !second) throw new Error('claims expected');
      expect(await extendLease(db, first, { now: at(2100), leaseMs: 1000 })).toBe(false);
      expect(await extendLease(db, second, { now: at(2100), leaseMs: 1000 })).toBe(true);
      const update = {
        counts_json: JSON.stringify(counts({ bee: 1 })),
        frames_json: JSON.stringify(frames([1, 2])),
      };
      expect(await completeJob(db, first, update, at(2200))).toBe(false);
      expect(await completeJob(db, second, update, at(2200))).toBe(true);
      expect(await completeJob(db, second, update, at(2300))).toBe(false); // done once
      const row = await fileRow(fileId);
      expect(row.status).toBe('PROCESSED');
      expect(JSON.parse(row.frames_json ?? '[]')).toHaveLength(2);
      expect(row.status_time).toBe(at(2200).toISOString());
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'fails a job after max attempts with a readable reason',
    async () => {
      await drain();
      const fileId = await queuedJob(0, 2);
      const db = t.server.app.db;
      await claimJob(db, { workerId: 'a', now: T0, leaseMs: 1000 });
      const again = await claimJob(db, { workerId: 'b', now: at(2000), leaseMs: 1000 });
      expect(again?.attempts).toBe(2);
      // The second worker dies too: the job is not claimed a third time but failed.
      expect(await claimJob(db, { workerId: 'c', now: at(4000), leaseMs: 1000 })).toBeNull();
      expect(await failExhaustedJobs(db, at(4000))).toBe(1);
      const row = await fileRow(fileId);
      expect(row.status).toBe('FAILED');
      expect(row.status_reason).toMatch(/did not finish after 2 attempts/);
      const job = (await db('jobs').where('file_id', fileId).first()) as { state: string };
      expect(job.state).toBe('failed');
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'requeues a transient failure and fails a permanent one at once',
    async () => {
      await drain();
      const db = t.server.app.db;
      const fileId = await queuedJob(0);
      const job = await claimJob(db, { workerId: 'a', now: T0, leaseMs: 60_000 });
      if (!job) throw new Error('claim expected');
      expect(
        await failAttempt(db, job, { reason: 'decoder timed out', permanent: false, now: at(1) }),
      ).toBe('queued');
      expect((await fileRow(fileId)).status).toBe('QUEUED');
      const retry = await claimJob(db, { workerId: 'a', now: at(2), leaseMs: 60_000 });
      if (!retry) throw new Error('claim expected');
      expect(retry.attempts).toBe(2);
      expect(
        await failAttempt(db, retry, {
          reason: 'The file is corrupt.',
          permanent: true,
          now: at(3),
        }),
      ).toBe('failed');
      const row = await fileRow(fileId);
      expect(row.status).toBe('FAILED');
      expect(row.status_reason).toBe('The file is corrupt.');
    },
  );
});
