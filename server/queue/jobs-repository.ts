/**
 * The jobs repository, the durable job queue (SCHEMA.md): one `jobs` row per queued video. Claims take a lease; every
 * claim gets its own lease token, so a worker whose lease expired (and whose job another worker
 * took over) can neither extend nor complete it. Timestamps are ISO UTC strings, which compare
 * correctly as text in both databases. The file's side of each transition is the files
 * repository's (server/files/files-repository.ts), written in the same transaction as the job's.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { dbClient, typed } from '../db.ts';
import { filesRepository } from '../files/files-repository.ts';
import { reapplyCorrections } from '../corrections/apply.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobRow {
  id: number;
  file_id: number;
  priority: number;
  state: JobState;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** researcher 2, premium 1, free 0 (SCHEMA.md). */
export const PRIORITY = { researcher: 2, premium: 1, free: 0 } as const;

const iso = (d: Date): string => d.toISOString();

export async function enqueueJob(
  db: Knex | Knex.Transaction,
  job: { fileId: number; priority: number; maxAttempts: number; now: Date },
): Promise<void> {
  const now = iso(job.now);
  await db('jobs').insert({
    file_id: job.fileId,
    priority: job.priority,
    state: 'queued',
    attempts: 0,
    max_attempts: job.maxAttempts,
    created_at: now,
    updated_at: now,
  });
}

export function leaseToken(workerId: string): string {
  return `${workerId}:${randomBytes(6).toString('hex')}`.slice(0, 128);
}

/**
 * The order jobs are claimed in: highest priority first; within a priority, round-robin by
 * owner: the oldest job of the owner served least recently (`queue_turns`, migration 0030),
 * then oldest. Counting finished claims, not only running ones, is what makes it fair with one
 * worker: a user who queued 20 videos gets every other turn, not all 20 before anyone else.
 * `turn` ranks each owner's own jobs, so that concurrent PostgreSQL claimers skipping a locked
 * first job take another owner's first job rather than that owner's second.
 */
const CLAIM_ORDER = `
  SELECT j.id, j.priority, COALESCE(q.served_seq, 0) AS served,
    ROW_NUMBER() OVER (PARTITION BY j.priority, f.user_id ORDER BY j.id) AS turn
  FROM jobs j
  LEFT JOIN files f ON f.id = j.file_id
  LEFT JOIN queue_turns q ON q.user_id = f.user_id
  WHERE j.state = 'queued'
    OR (j.state = 'running' AND j.lease_until < :now AND j.attempts < j.max_attempts)`;

const CLAIM_SORT = 'o.priority DESC, o.turn, o.served, o.id';

/**
 * Gives the claimed job's owner the latest turn. Concurrent PostgreSQL claims may draw the same
 * number; such owners then tie, and their oldest job goes first.
 */
async function markServed(trx: Knex.Transaction, jobId: number): Promise<void> {
  await trx.raw(
    `INSERT INTO queue_turns (user_id, served_seq)
     SELECT f.user_id, (SELECT COALESCE(MAX(served_seq), 0) + 1 FROM queue_turns)
     FROM jobs j JOIN files f ON f.id = j.file_id
     WHERE j.id = ?
     ON CONFLICT (user_id) DO UPDATE SET served_seq = excluded.served_seq`,
    [jobId],
  );
}

/**
 * Claims the next job (CLAIM_ORDER): queued ones, or running ones whose lease has expired (a
 * crashed worker). Jobs that have used all their attempts are never claimed (see
 * `failExhaustedJobs`).
 */
export async function claimJob(
  db: Knex,
  opts: { workerId: string; now: Date; leaseMs: number },
): Promise<JobRow | null> {
  const token = leaseToken(opts.workerId);
  const now = iso(opts.now);
  const leaseUntil = iso(new Date(opts.now.getTime() + opts.leaseMs));
  const update = {
    state: 'running',
    lease_owner: token,
    lease_until: leaseUntil,
    attempts: db.raw('attempts + 1'),
    updated_at: now,
  };

  const row = await db.transaction(async (trx) => {
    if (dbClient(db) === 'postgres') {
      // The ranking sits in a subquery: row locks cannot be taken where a window function
      // runs. The claimable test is repeated on the locked row, which PostgreSQL re-checks
      // when a concurrent claim changed it.
      const result = await trx.raw<{ rows: Array<{ id: number }> }>(
        `SELECT j.id FROM jobs j JOIN (${CLAIM_ORDER}) o ON o.id = j.id
         WHERE j.state = 'queued'
           OR (j.state = 'running' AND j.lease_until < :now AND j.attempts < j.max_attempts)
         ORDER BY ${CLAIM_SORT}
         LIMIT 1
         FOR UPDATE OF j SKIP LOCKED`,
        { now },
      );
      const picked = result.rows[0];
      if (!picked) return null;
      await trx('jobs').where('id', picked.id).update(update);
    } else {
      // SQLite serialises writers, so one UPDATE with the choice in a sub-select is atomic.
      const changed = await trx('jobs')
        .where(
          'id',
          trx.raw(`(SELECT o.id FROM (${CLAIM_ORDER}) o ORDER BY ${CLAIM_SORT} LIMIT 1)`, { now }),
        )
        .update(update);
      if (changed === 0) return null;
    }
    const claimed = await typed<JobRow | undefined>(
      trx('jobs').where({ lease_owner: token, state: 'running' }).first(),
    );
    if (claimed) await markServed(trx, Number(claimed.id));
    return claimed ?? null;
  });
  return row ? normaliseJob(row) : null;
}

/** Extends a running job's lease; false when the lease was lost (expired and taken over). */
export async function extendLease(
  db: Knex,
  job: Pick<JobRow, 'id' | 'lease_owner'>,
  opts: { now: Date; leaseMs: number },
): Promise<boolean> {
  const changed = await db('jobs')
    .where({ id: job.id, lease_owner: job.lease_owner, state: 'running' })
    .update({
      lease_until: iso(new Date(opts.now.getTime() + opts.leaseMs)),
      updated_at: iso(opts.now),
    });
  return changed > 0;
}

/**
 * Writes the results and finishes the job in ONE transaction, only while this claim still holds
 * the lease. Frames are written whole (overwrite), so a retried job never appends; corrected
 * frames are laid over them again. Returns false
 * (and writes nothing) when the lease was lost.
 */
export async function completeJob(
  db: Knex,
  job: JobRow,
  fileUpdate: object,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const changed = await trx('jobs')
      .where({ id: job.id, lease_owner: job.lease_owner, state: 'running' })
      .update({
        state: 'done',
        lease_owner: null,
        lease_until: null,
        last_error: null,
        updated_at: iso(now),
      });
    if (changed === 0) return false;
    await filesRepository(trx).markProcessed(job.file_id, fileUpdate, now);
    // A video counted again keeps its owner's corrected frames over the model's new counts.
    await reapplyCorrections(trx, job.file_id);
    return true;
  });
}

/**
 * Records a failed attempt. Permanent failures (the content itself is bad) and the last allowed
 * attempt mark the job failed and the file FAILED with `reason`; otherwise the job goes back to
 * the queue. Returns the resulting state, or null when the lease was lost.
 */
export async function failAttempt(
  db: Knex,
  job: JobRow,
  opts: { reason: string; permanent: boolean; now: Date },
): Promise<'queued' | 'failed' | null> {
  const final = opts.permanent || job.attempts >= job.max_attempts;
  return db.transaction(async (trx) => {
    const changed = await trx('jobs')
      .where({ id: job.id, lease_owner: job.lease_owner, state: 'running' })
      .update({
        state: final ? 'failed' : 'queued',
        lease_owner: null,
        lease_until: null,
        last_error: opts.reason,
        updated_at: iso(opts.now),
      });
    if (changed === 0) return null;
    const files = filesRepository(trx);
    if (final) await files.markFailed(job.file_id, opts.reason, opts.now);
    else await files.markRetrying(job.file_id, opts.now);
    return final ? 'failed' : 'queued';
  });
}

/**
 * Queues a finished (done or failed) job again with fresh attempts, and its file with it
 * (counting a video again); false when the job is not finished (still queued or running).
 */
export async function requeueFinishedJob(
  db: Knex | Knex.Transaction,
  fileId: number,
  now: Date,
): Promise<boolean> {
  const changed = await db('jobs')
    .where('file_id', fileId)
    .whereIn('state', ['done', 'failed'])
    .update({
      state: 'queued',
      attempts: 0,
      lease_owner: null,
      lease_until: null,
      last_error: null,
      updated_at: iso(now),
    });
  if (changed === 0) return false;
  await filesRepository(db).markRequeued(fileId, now);
  return true;
}

/** Whether the file has a job at all (a picture analysed in its upload's request has none). */
export async function hasJob(db: Knex | Knex.Transaction, fileId: number): Promise<boolean> {
  return (await db('jobs').where('file_id', fileId).first('id')) !== undefined;
}

/** A deleted file's jobs (in the transaction deleting the file). */
export async function deleteJobsOfFile(db: Knex | Knex.Transaction, fileId: number): Promise<void> {
  await db('jobs').where('file_id', fileId).delete();
}

/** Puts a job back untouched (worker stopping): the attempt does not count. */
export async function releaseJob(db: Knex, job: JobRow, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const changed = await trx('jobs')
      .where({ id: job.id, lease_owner: job.lease_owner, state: 'running' })
      .update({
        state: 'queued',
        lease_owner: null,
        lease_until: null,
        attempts: trx.raw('CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END'),
        updated_at: iso(now),
      });
    if (changed > 0) await filesRepository(trx).markHandedBack(job.file_id, now);
  });
}

/**
 * Jobs whose worker died on their last allowed attempt would otherwise sit in `running` forever:
 * fail them (and their files) with a readable reason.
 */
export async function failExhaustedJobs(db: Knex, now: Date): Promise<number> {
  const stamp = iso(now);
  const stuck = await typed<Pick<JobRow, 'id' | 'file_id' | 'attempts' | 'last_error'>[]>(
    db('jobs')
      .where('state', 'running')
      .andWhere('lease_until', '<', stamp)
      .andWhere('attempts', '>=', db.ref('max_attempts'))
      .select('id', 'file_id', 'attempts', 'last_error'),
  );
  let failed = 0;
  for (const job of stuck) {
    const reason =
      job.last_error ??
      `Analysis did not finish after ${job.attempts} attempts (the worker stopped or timed out).`;
    await db.transaction(async (trx) => {
      const changed = await trx('jobs')
        .where({ id: job.id, state: 'running' })
        .andWhere('lease_until', '<', stamp)
        .update({
          state: 'failed',
          lease_owner: null,
          lease_until: null,
          last_error: reason,
          updated_at: stamp,
        });
      if (changed === 0) return;
      failed += 1;
      await filesRepository(trx).markFailed(job.file_id, reason, now);
    });
  }
  return failed;
}

function normaliseJob(row: JobRow): JobRow {
  return {
    ...row,
    id: Number(row.id),
    file_id: Number(row.file_id),
    priority: Number(row.priority),
    attempts: Number(row.attempts),
    max_attempts: Number(row.max_attempts),
  };
}
