/**
 * The files table's status machine and common reads (SCHEMA.md). Every status change writes
 * status_time; the queue's transitions are guarded by the status they start from, so a retried
 * or late write never takes a finished file backwards:
 *
 *   UPLOADED/QUEUED/PROCESSING -> PROCESSING (claimed)
 *   any -> PROCESSED (results written, by the claim holding the lease)
 *   not PROCESSED -> FAILED (with the reason its owner sees) or QUEUED (retry)
 *   PROCESSING -> QUEUED (handed back by a stopping worker)
 *
 * `retention_from` is set when a file is first finished (PROCESSED or FAILED) and never moved
 * after: media retention counts from it, so counting a video again does not keep it longer.
 *
 * `filesRepository(db)` works on a connection or a transaction, so the jobs repository can move
 * a job and its file together.
 */
import type { Knex } from 'knex';
import { typed } from '../db.ts';
import { normaliseFileRow } from './file-row.ts';
import { PG_STORED, STORED } from './file-record.ts';
import type { FileRow } from './file-row.ts';

const iso = (d: Date): string => d.toISOString();

/**
 * Columns the database derives from a file's own (the stored record parts, PostgreSQL's
 * lowercase search copies): never part of a row handed out, never written (PostgreSQL refuses
 * a value for a generated column).
 */
const DERIVED_COLUMNS = new Set([
  ...[STORED, PG_STORED].flatMap((s) => [...s.list.parts, ...s.search.parts].map((p) => p.column)),
  'description_lower',
  'location_lower',
]);

function withoutDerived<T extends object>(row: T): T {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !DERIVED_COLUMNS.has(k))) as T;
}

/** What a location's history reads of each processed file (server/locations/history.ts). */
export interface HistoryRow {
  id: number | string;
  original_name: string;
  kind: 'image' | 'video';
  created_at: string;
  counts_json: string | null;
  summary_json: string | null;
}

/** Columns that name a file on disk; the retention sweep looks for names no row uses. */
export type StoredNameColumn = 'stored_name' | 'preview_name';

export interface FilesRepository {
  /** The row (ids as numbers), or undefined. */
  find(id: number): Promise<FileRow | undefined>;
  /** The row as stored (every column) when `owner` owns it or is null (an administrator). */
  findVisible(id: number, owner: number | null): Promise<FileRow | undefined>;
  /** The rows of `ids` in id order; only the owner's unless `owner` is null. */
  findMany(ids: readonly number[], owner: number | null): Promise<FileRow[]>;
  /** The rows named `names` in id order; only the owner's unless `owner` is null. */
  findManyByName(names: readonly string[], owner: number | null): Promise<FileRow[]>;
  /** The user's processed videos at the location, newest upload first, at most `limit`. */
  recentProcessedVideos(userId: number, location: string, limit: number): Promise<FileRow[]>;
  /** The user's finished videos at the location whose media is kept, newest upload first. */
  finishedVideosWithMedia(userId: number, location: string): Promise<FileRow[]>;
  /** The same for pictures and videos alike (counting again with a calibration). */
  finishedFilesWithMedia(userId: number, location: string): Promise<FileRow[]>;
  /** Inserts a row and answers its id. */
  insert(row: Record<string, unknown>): Promise<number>;
  /** Deletes the row (its jobs and alerts go first, in the caller's transaction). */
  delete(id: number): Promise<void>;
  /** Moves a user's files from one location name to another; answers how many moved. */
  renameLocation(userId: number, from: string, to: string): Promise<number>;
  /** When each of `ids` was uploaded and its description; only the owner's unless `owner` is null. */
  uploadFacts(
    ids: readonly number[],
    owner: number | null,
  ): Promise<Array<{ id: number; created_at: string; description: string }>>;
  /** The user's processed files at the location, as a location's history reads them. */
  processedAtLocation(userId: number, location: string): Promise<HistoryRow[]>;
  /** How many of a user's files name the location. */
  countAtLocation(userId: number, location: string): Promise<number>;
  /** Counted again (a finished video requeued by its owner): QUEUED, keeping its retention. */
  markRequeued(id: number, now: Date): Promise<void>;
  /** Claimed by the worker: PROCESSING, unless it is already finished. */
  markProcessing(id: number, now: Date): Promise<void>;
  /** Results written: PROCESSED with `columns` (counts, frames, preview...). */
  markProcessed(id: number, columns: object, now: Date): Promise<void>;
  /** Last attempt failed, or the content is bad: FAILED with `reason`, unless PROCESSED. */
  markFailed(id: number, reason: string, now: Date): Promise<void>;
  /** A failed attempt that will be retried: QUEUED again, unless PROCESSED. */
  markRetrying(id: number, now: Date): Promise<void>;
  /** A stopping worker handed the job back: PROCESSING -> QUEUED. */
  markHandedBack(id: number, now: Date): Promise<void>;
  /** Videos whose media is due: first finished at or before `cutoff`, finished now, media kept. */
  mediaDueForDeletion(cutoff: Date): Promise<Array<{ id: number; stored_name: string }>>;
  /** Records that the media is gone; 1 when this call did it, 0 when it was done already. */
  markMediaDeleted(id: number, now: Date): Promise<number>;
  /** Those of `names` that some row holds in `column`. */
  namesInUse(column: StoredNameColumn, names: readonly string[]): Promise<Set<string>>;
}

/** `retention_from` as it is, or `now` for a file finished for the first time. */
const firstFinish = (db: Knex | Knex.Transaction, now: Date) =>
  db.raw('COALESCE(retention_from, ?)', [iso(now)]);

export function filesRepository(db: Knex | Knex.Transaction): FilesRepository {
  /** The owner's finished files (of `kind`, or all) at the location whose media is kept, newest first. */
  const finishedWithMedia = async (userId: number, location: string, kind: string | null) => {
    const query = db('files')
      .where({ user_id: userId, location })
      .whereIn('status', ['PROCESSED', 'FAILED'])
      .whereNull('media_deleted_at');
    if (kind) query.andWhere('kind', kind);
    const rows = await typed<FileRow[]>(
      query.orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]),
    );
    return rows.map(normaliseFileRow);
  };
  return {
    async find(id) {
      const row = await typed<FileRow | undefined>(db('files').where('id', id).first());
      return row ? normaliseFileRow(withoutDerived(row)) : undefined;
    },

    async findVisible(id, owner) {
      const query = db('files').where('id', id);
      if (owner !== null) query.andWhere('user_id', owner);
      const row = await typed<FileRow | undefined>(query.first());
      return row ? normaliseFileRow(row) : undefined;
    },

    async findMany(ids, owner) {
      const query = db('files').whereIn('id', ids);
      if (owner !== null) query.andWhere('user_id', owner);
      const rows = await typed<FileRow[]>(query.orderBy('id'));
      return rows.map(normaliseFileRow);
    },

    async findManyByName(names, owner) {
      const query = db('files').whereIn('original_name', names);
      if (owner !== null) query.andWhere('user_id', owner);
      const rows = await typed<FileRow[]>(query.orderBy('id'));
      return rows.map(normaliseFileRow);
    },

    async recentProcessedVideos(userId, location, limit) {
      const rows = await typed<FileRow[]>(
        db('files')
          .where({ user_id: userId, location, kind: 'video', status: 'PROCESSED' })
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(limit),
      );
      return rows.map(normaliseFileRow);
    },

    finishedVideosWithMedia(userId, location) {
      return finishedWithMedia(userId, location, 'video');
    },

    finishedFilesWithMedia(userId, location) {
      return finishedWithMedia(userId, location, null);
    },

    async delete(id) {
      await db('files').where('id', id).delete();
    },

    async renameLocation(userId, from, to) {
      return typed<number>(
        db('files').where({ user_id: userId, location: from }).update({ location: to }),
      );
    },

    async uploadFacts(ids, owner) {
      const query = db('files').whereIn('id', ids);
      if (owner !== null) query.andWhere('user_id', owner);
      const rows = await typed<
        Array<{ id: number | string; created_at: string; description: string }>
      >(query.orderBy('id').select('id', 'created_at', 'description'));
      return rows.map((r) => ({ ...r, id: Number(r.id) }));
    },

    async processedAtLocation(userId, location) {
      return typed<HistoryRow[]>(
        db('files')
          .where({ user_id: userId, location, status: 'PROCESSED' })
          .select('id', 'original_name', 'kind', 'created_at', 'counts_json', 'summary_json'),
      );
    },

    async countAtLocation(userId, location) {
      const used = await typed<{ n: number | string } | undefined>(
        db('files').where({ user_id: userId, location }).count({ n: '*' }).first(),
      );
      return Number(used?.n ?? 0);
    },

    async markRequeued(id, now) {
      await db('files')
        .where('id', id)
        .update({
          status: 'QUEUED',
          status_reason: null,
          status_time: iso(now),
          // Rows finished before 0031's backfill ran get the time they were finished.
          retention_from: db.raw('COALESCE(retention_from, status_time)'),
        });
    },

    async insert(row) {
      const inserted = await typed<Array<{ id: number } | number>>(
        db('files').insert(withoutDerived(row), ['id']),
      );
      const first = inserted[0];
      return Number(typeof first === 'object' ? first.id : first);
    },

    async markProcessing(id, now) {
      await db('files')
        .where('id', id)
        .whereIn('status', ['UPLOADED', 'QUEUED', 'PROCESSING'])
        .update({ status: 'PROCESSING', status_time: iso(now), status_reason: null });
    },

    async markProcessed(id, columns, now) {
      await db('files')
        .where('id', id)
        .update({
          ...columns,
          status: 'PROCESSED',
          status_reason: null,
          status_time: iso(now),
          processed_at: iso(now),
          retention_from: firstFinish(db, now),
        });
    },

    async markFailed(id, reason, now) {
      await db('files')
        .where('id', id)
        .whereNot('status', 'PROCESSED')
        .update({
          status: 'FAILED',
          status_reason: reason,
          status_time: iso(now),
          retention_from: firstFinish(db, now),
        });
    },

    async markRetrying(id, now) {
      await db('files')
        .where('id', id)
        .whereNot('status', 'PROCESSED')
        .update({ status: 'QUEUED', status_reason: null, status_time: iso(now) });
    },

    async markHandedBack(id, now) {
      await db('files')
        .where({ id, status: 'PROCESSING' })
        .update({ status: 'QUEUED', status_time: iso(now) });
    },

    async mediaDueForDeletion(cutoff) {
      const rows = await typed<Array<{ id: number; stored_name: string }>>(
        db('files')
          .where('kind', 'video')
          .whereNull('media_deleted_at')
          .whereIn('status', ['PROCESSED', 'FAILED'])
          // Rows written without retention_from (before 0031, or straight into the table) count
          // from status_time.
          .whereRaw('(retention_from <= ? OR (retention_from IS NULL AND status_time <= ?))', [
            iso(cutoff),
            iso(cutoff),
          ])
          .select('id', 'stored_name'),
      );
      return rows.map((r) => ({ id: Number(r.id), stored_name: r.stored_name }));
    },

    async markMediaDeleted(id, now) {
      return db('files')
        .where('id', id)
        .whereNull('media_deleted_at')
        .update({ media_deleted_at: iso(now) });
    },

    async namesInUse(column, names) {
      const rows = await typed<Array<Record<string, string>>>(
        db('files')
          .whereIn(column, [...names])
          .select(column),
      );
      return new Set(rows.map((r) => r[column]).filter((n): n is string => n !== undefined));
    },
  };
}
