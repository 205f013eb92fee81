/**
 * The SQL of the per-user work limits (quotas.ts): uploads counted per UTC day in
 * `upload_counts` (migration 0014) and the bytes of media a user's files keep.
 */
import type { Knex } from 'knex';
import { dbClient, typed } from '../db.ts';

/**
 * In a PostgreSQL transaction, locks the user's row so that two requests of one user are
 * checked one after the other; elsewhere nothing (SQLite's single writer serialises them).
 */
export async function lockUserInTransaction(db: Knex | Knex.Transaction, userId: number) {
  if (db.isTransaction && dbClient(db as Knex) === 'postgres')
    await db('users').where('id', userId).forUpdate().first('id');
}

/** Bytes of the user's files whose media is still kept. */
export async function keptBytes(db: Knex | Knex.Transaction, userId: number): Promise<number> {
  const usage = await typed<{ kept: number | string | null } | undefined>(
    db('files')
      .where('user_id', userId)
      .whereNull('media_deleted_at')
      .first(db.raw('SUM(size_bytes) AS kept')),
  );
  return Number(usage?.kept ?? 0);
}

/** The uploads and re-counts counted for the user on `day` (YYYY-MM-DD, UTC). */
export async function uploadsOnDay(
  db: Knex | Knex.Transaction,
  userId: number,
  day: string,
): Promise<number> {
  const counted = await typed<{ count: number | string } | undefined>(
    db('upload_counts').where({ user_id: userId, day }).first('count'),
  );
  return Number(counted?.count ?? 0);
}

/** Counts one more upload or re-count for the user on `day` (YYYY-MM-DD, UTC). */
export async function addUploadOnDay(
  db: Knex | Knex.Transaction,
  userId: number,
  day: string,
): Promise<void> {
  await db('upload_counts')
    .insert({ user_id: userId, day, count: 1 })
    .onConflict(['user_id', 'day'])
    .merge({ count: db.raw('upload_counts.count + 1') });
}

/**
 * The user's processed videos whose media is kept, oldest retention start first: when each
 * started counting (first processing; a re-count does not move it) and its size.
 */
export async function keptVideosByAge(
  db: Knex | Knex.Transaction,
  userId: number,
): Promise<Array<{ since: string; size_bytes: number }>> {
  const since = db.raw('COALESCE(retention_from, processed_at)');
  const videos = await typed<Array<{ since: string; size_bytes: number | string }>>(
    db('files')
      .where({ user_id: userId, kind: 'video' })
      .whereNull('media_deleted_at')
      .whereNotNull('processed_at')
      .orderBy(since)
      .select({ since }, 'size_bytes'),
  );
  return videos.map((v) => ({ since: v.since, size_bytes: Number(v.size_bytes) }));
}
