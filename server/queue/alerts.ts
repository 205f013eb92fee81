/**
 * Hornet alerts (decisions.md 4): a Researcher whose processed file shows a hornet gets ONE
 * e-mail per file. The hornet_alerts row (unique file_id) is written before sending, so a retried
 * or duplicated completion never e-mails twice.
 */
import type { AppContext } from '../context.ts';
import { typed } from '../files/access.ts';
import { today } from '../clock.ts';
import { planFor } from '../files/plans.ts';
import type { FileRow } from '../files/records.ts';
import { isoWithOffset, rowCounts } from '../files/records.ts';
import { isUniqueViolation } from '../users/repo.ts';

export async function alertHornets(app: AppContext, fileId: number): Promise<boolean> {
  const row = await typed<(FileRow & { owner_email: string }) | undefined>(
    app
      .db('files')
      .join('users', 'users.id', 'files.user_id')
      .where('files.id', fileId)
      .first('files.*', 'users.email as owner_email'),
  );
  if (!row || row.status !== 'PROCESSED') return false;
  const hornets = rowCounts(row)?.hornet ?? 0;
  if (!hornets || hornets <= 0) return false;
  if (!(await planFor(app.db, Number(row.user_id), today(app.clock))).researcher) return false;
  try {
    await app
      .db('hornet_alerts')
      .insert({ file_id: fileId, sent_at: app.clock.now().toISOString() });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
  await app.mailer.send({
    to: row.owner_email,
    subject: `Hornet alert: ${hornets} hornet${hornets === 1 ? '' : 's'} seen at ${row.location}`,
    text: [
      `HiveSight saw ${hornets} hornet${hornets === 1 ? '' : 's'} in ${row.original_name} (location ${row.location}).`,
      `Analysed at ${isoWithOffset(row.status_time)}.`,
      '',
      `Report: ${app.config.publicUrl}/api/files/${row.id}/report.csv`,
    ].join('\n'),
  });
  return true;
}
