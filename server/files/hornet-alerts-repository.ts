/**
 * The SQL of hornet alerts (hornet-alerts.ts): the file with what its owner chose, and the
 * hornet_alerts rows (unique file_id) that keep an alert from going out twice.
 */
import type { Knex } from 'knex';
import { typed } from '../db.ts';
import { isUniqueViolation } from '../users/users-repository.ts';
import type { FileRow } from './file-row.ts';

export type FileWithOwner = FileRow & { owner_email: string; hornet_alerts: boolean | number };

/** The file's row with its owner's e-mail and alert setting, or undefined. */
export async function fileWithOwner(db: Knex, fileId: number): Promise<FileWithOwner | undefined> {
  return typed<FileWithOwner | undefined>(
    db('files')
      .join('users', 'users.id', 'files.user_id')
      .where('files.id', fileId)
      .first('files.*', 'users.email as owner_email', 'users.hornet_alerts'),
  );
}

/**
 * Takes the alert for the file: true when no alert went out for the user's `location` after
 * `since` and this file had none, and the file's row is now written (at `now`); false otherwise.
 */
export async function claimHornetAlert(
  db: Knex,
  claim: { fileId: number; userId: number; location: string; since: Date; now: Date },
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const recent = await typed<{ id: number } | undefined>(
      trx('hornet_alerts')
        .join('files', 'files.id', 'hornet_alerts.file_id')
        .where('files.user_id', claim.userId)
        .andWhere('files.location', claim.location)
        .andWhere('hornet_alerts.sent_at', '>', claim.since.toISOString())
        .first('hornet_alerts.id'),
    );
    if (recent) return false;
    try {
      await trx('hornet_alerts').insert({
        file_id: claim.fileId,
        sent_at: claim.now.toISOString(),
      });
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
    return true;
  });
}

/** Deletes the file's alert rows (before the file, in the caller's transaction). */
export async function deleteHornetAlertsOf(
  db: Knex | Knex.Transaction,
  fileId: number,
): Promise<void> {
  await db('hornet_alerts').where('file_id', fileId).delete();
}
