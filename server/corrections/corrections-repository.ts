/**
 * The SQL of corrections: the corrected_frames rows (one per corrected frame of a file), the
 * owner's training consent on users, and the file columns a correction rewrites.
 */
import type { Knex } from 'knex';
import { typed } from '../db.ts';
import type { FileRow } from '../files/file-row.ts';

export interface CorrectionRow {
  id: number;
  file_id: number;
  frame_index: number;
  time_s: number;
  still_name: string;
  width: number;
  height: number;
  labels_json: string;
  model_json: string;
  author_id: number;
  edited_by: number | null;
  reviewed: boolean | number;
  created_at: string;
  updated_at: string;
}

/** A corrected frame with what the dataset export records of its file and owner. */
export interface ExportRow extends CorrectionRow {
  owner_id: number;
  location: string;
  file_created_at: string;
  file_summary_json: string | null;
  training_consent_at: string;
}

type DbOrTx = Knex | Knex.Transaction;

/** The file's corrected frames in frame order. */
export async function correctionRows(db: DbOrTx, fileId: number): Promise<CorrectionRow[]> {
  return typed<CorrectionRow[]>(
    db('corrected_frames').where('file_id', fileId).orderBy('frame_index'),
  );
}

export async function correctionRow(
  db: Knex,
  fileId: number,
  index: number,
): Promise<CorrectionRow | undefined> {
  return typed<CorrectionRow | undefined>(
    db('corrected_frames').where({ file_id: fileId, frame_index: index }).first(),
  );
}

/** What a save writes: new labels over an existing row, or a new row. */
export type CorrectionWrite =
  | {
      existingId: number;
      labelsJson: string;
      editedBy: number;
      reviewed: boolean;
      now: string;
    }
  | {
      existingId: null;
      row: Omit<CorrectionRow, 'id'>;
    };

/**
 * Writes the corrected frame and, in the same transaction, the file's columns that
 * `fileColumns` derives from the file's current row.
 */
export async function saveCorrectionRow(
  db: Knex,
  fileId: number,
  write: CorrectionWrite,
  fileColumns: (file: FileRow) => object,
): Promise<void> {
  await db.transaction(async (trx) => {
    if (write.existingId !== null) {
      await trx('corrected_frames').where('id', write.existingId).update({
        labels_json: write.labelsJson,
        edited_by: write.editedBy,
        reviewed: write.reviewed,
        updated_at: write.now,
      });
    } else {
      await trx('corrected_frames').insert(write.row);
    }
    await updateFileFromCurrent(trx, fileId, fileColumns);
  });
}

/** Rewrites the file's columns from its current row (in the caller's transaction). */
export async function updateFileFromCurrent(
  db: DbOrTx,
  fileId: number,
  fileColumns: (file: FileRow) => object,
): Promise<void> {
  const current = await typed<FileRow | undefined>(db('files').where('id', fileId).first());
  if (!current) return;
  await db('files').where('id', fileId).update(fileColumns(current));
}

// ---- Consent --------------------------------------------------------------------------------

export interface ConsentRow {
  training_consent_at: string | null;
  training_consent_revoked_at: string | null;
}

export async function consentRow(db: Knex, userId: number): Promise<ConsentRow | undefined> {
  return typed<ConsentRow | undefined>(
    db('users').where('id', userId).first('training_consent_at', 'training_consent_revoked_at'),
  );
}

/** How many corrected frames the user's files have. */
export async function correctedFrameCount(db: Knex, userId: number): Promise<number> {
  const counted = await typed<Array<{ n: number | string }>>(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .where('files.user_id', userId)
      .count({ n: '*' }),
  );
  return Number(counted[0]?.n ?? 0);
}

export async function giveConsent(db: Knex, userId: number, at: Date): Promise<void> {
  await db('users').where('id', userId).update({ training_consent_at: at.toISOString() });
}

export async function revokeConsent(db: Knex, userId: number, at: Date): Promise<void> {
  await db('users')
    .where('id', userId)
    .update({ training_consent_at: null, training_consent_revoked_at: at.toISOString() });
}

// ---- Accuracy, export, retention -------------------------------------------------------------

/** The labels and model boxes of the owner's corrected frames at a location. */
export async function labelPairsAt(
  db: Knex,
  ownerId: number,
  location: string,
): Promise<Array<{ labels_json: string; model_json: string }>> {
  return typed<Array<{ labels_json: string; model_json: string }>>(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .where('files.user_id', ownerId)
      .andWhere('files.location', location)
      .select('corrected_frames.labels_json', 'corrected_frames.model_json'),
  );
}

/** The corrected frames of consenting owners, by file and frame (reviewed ones only if asked). */
export async function exportRows(db: Knex, opts: { reviewedOnly: boolean }): Promise<ExportRow[]> {
  const query = db('corrected_frames')
    .join('files', 'files.id', 'corrected_frames.file_id')
    .join('users', 'users.id', 'files.user_id')
    .whereNotNull('users.training_consent_at')
    .select(
      'corrected_frames.*',
      'files.user_id as owner_id',
      'files.location',
      'files.created_at as file_created_at',
      'files.summary_json as file_summary_json',
      'users.training_consent_at',
    )
    .orderBy([
      { column: 'files.id', order: 'asc' },
      { column: 'corrected_frames.frame_index', order: 'asc' },
    ]);
  if (opts.reviewedOnly) query.andWhere('corrected_frames.reviewed', true);
  return typed<ExportRow[]>(query);
}

/** Corrected frames of videos whose media is gone, owned by users without consent, still kept. */
export async function stillsPastTheirVideo(
  db: Knex,
): Promise<Array<{ id: number; still_name: string }>> {
  return typed<Array<{ id: number; still_name: string }>>(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .join('users', 'users.id', 'files.user_id')
      .where('files.kind', 'video')
      .whereNotNull('files.media_deleted_at')
      .whereNull('users.training_consent_at')
      .andWhere('corrected_frames.still_name', '<>', '')
      .select('corrected_frames.id', 'corrected_frames.still_name'),
  );
}

export async function forgetStill(db: Knex, correctionId: number): Promise<void> {
  await db('corrected_frames').where('id', correctionId).update({ still_name: '' });
}

/** Those of `names` that some corrected frame names as its still. */
export async function stillNamesInUse(db: Knex, names: readonly string[]): Promise<Set<string>> {
  const named = await typed<Array<{ still_name: string }>>(
    db('corrected_frames')
      .whereIn('still_name', [...new Set(names)])
      .select('still_name'),
  );
  return new Set(named.map((r) => r.still_name));
}
