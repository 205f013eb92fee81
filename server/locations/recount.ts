/**
 * Counting a video again with its location's current entrance (issue 43): a video analysed
 * before the entrance was set (or moved) goes back to the queue while its media is kept
 * (MEDIA_RETENTION_HOURS after it was first processed: a re-count does not move that). Allowed
 * only when the entrance differs from the one the video was counted with, one waiting re-count
 * a file, and each one counts against the owner's daily uploads (issue 54): moving the
 * entrance back and forth cannot re-queue a video without end. The worker re-applies the
 * file's corrected frames over the new counts (server/corrections/apply.ts).
 *
 * Counting a file again with its location's calibration (issue 58) follows the same rules for
 * pictures and videos alike: allowed when the file was counted with another calibration than
 * the one its owner's location applies now (or with one, now that it is off). A picture,
 * analysed in its upload's request, gets its first job here: the worker counts it again.
 */
import type { Db } from '../db.ts';
import { inTransaction } from '../db.ts';
import { calibrationNote } from '../../engine/vocabulary.ts';
import type { Calibration, Entrance } from '../../engine/vocabulary.ts';
import type { Clock } from '../clock.ts';
import { today } from '../clock.ts';
import type { Config } from '../config.ts';
import { Conflict } from '../errors.ts';
import type { FileRow } from '../files/file-row.ts';
import { enqueueJob, hasJob, requeueFinishedJob } from '../queue/jobs-repository.ts';
import { filesRepository } from '../files/files-repository.ts';
import { planFor } from '../files/plans.ts';
import { calibrationRepository } from '../calibration/calibration-repository.ts';
import { hasMedia, rowSummary } from '../files/file-row.ts';
import { isUniqueViolation } from '../users/users-repository.ts';
import { countUpload, enforceDailyCount, uploadQuota } from '../files/quotas.ts';
import { entranceForFile } from './entrance.ts';

export const sameEntrance = (a: Entrance | null | undefined, b: Entrance | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether the file was counted with the entrance its location has now. */
export function countedWith(file: FileRow, entrance: Entrance | null): boolean {
  return sameEntrance(rowSummary(file)?.traffic?.entrance, entrance);
}

const WAITING =
  'This video is already waiting to be counted again. Try again once that count is done.';
const FILE_WAITING =
  'This file is already waiting to be counted again. Try again once that count is done.';
const BUSY = 'This video is still being analysed. Try again once it is processed.';
const ERASED =
  'The video was erased after processing, so it cannot be counted again. Upload it again.';

/**
 * Why the video cannot be counted again with `entrance` at `nowMs` (the messages of the 409s),
 * or null when it can, as far as the file itself tells.
 */
export function whyNotCountAgain(
  file: FileRow,
  entrance: Entrance | null,
  nowMs: number,
  retentionHours: number,
): string | null {
  if (file.kind !== 'video') return 'Only videos are counted in and out; a picture has no traffic.';
  if (file.status !== 'PROCESSED' && file.status !== 'FAILED')
    return file.retention_from ? WAITING : BUSY;
  const erasedAt = Date.parse(file.retention_from ?? file.status_time) + retentionHours * 3600_000;
  // Past its retention the media goes at the next sweep, which a queued video would only delay.
  if (!hasMedia(file) || erasedAt <= nowMs) return ERASED;
  if (!entrance) return `"${file.location}" has no entrance yet. Set its entrance first.`;
  if (countedWith(file, entrance))
    return 'This video was already counted with the current entrance.';
  return null;
}

/** Whether the file was counted with `calibration` (null: without any). */
export function countedWithCalibration(file: FileRow, calibration: Calibration | null): boolean {
  const note = rowSummary(file)?.calibration ?? null;
  return JSON.stringify(note) === JSON.stringify(calibration ? calibrationNote(calibration) : null);
}

/**
 * Why the file cannot be counted again with its location's calibration as it is now (`applied`:
 * the one applied, or null when none is), or null when it can.
 */
export function whyNotCountAgainWithCalibration(
  file: FileRow,
  applied: Calibration | null,
  nowMs: number,
  retentionHours: number,
): string | null {
  if (file.status !== 'PROCESSED' && file.status !== 'FAILED')
    return file.retention_from
      ? FILE_WAITING
      : 'This file is still being analysed. Try again once it is processed.';
  const erasedAt = Date.parse(file.retention_from ?? file.status_time) + retentionHours * 3600_000;
  if (!hasMedia(file) || erasedAt <= nowMs)
    return 'The file was erased after processing, so it cannot be counted again. Upload it again.';
  if (countedWithCalibration(file, applied))
    return applied
      ? 'This file was already counted with the current calibration.'
      : 'This file was already counted without a calibration.';
  return null;
}

type RecountApp = {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'mediaRetentionHours' | 'uploadQuotaScale' | 'jobMaxAttempts'>;
};

/**
 * Puts the file's job back in the queue (`reason`: to count it with its location's entrance, a
 * video; or with its calibration, any file), counting it against its owner's daily uploads, or
 * says why not: 409 (see the messages), 429 past the daily count.
 */
export async function countAgain(
  app: RecountApp,
  file: FileRow,
  reason: 'entrance' | 'calibration' = 'entrance',
): Promise<void> {
  const { db, clock } = app;
  const now = clock.now();
  const retention = app.config.mediaRetentionHours;
  const why =
    reason === 'calibration'
      ? whyNotCountAgainWithCalibration(
          file,
          await calibrationRepository(db).active(file.user_id, file.location),
          now.getTime(),
          retention,
        )
      : whyNotCountAgain(
          file,
          file.kind === 'video' ? await entranceForFile(db, file) : null,
          now.getTime(),
          retention,
        );
  if (why) throw new Conflict(why);
  const quota = await uploadQuota(db, file.user_id, today(clock), app.config.uploadQuotaScale);
  const { priority } = await planFor(db, file.user_id, today(clock));
  await inTransaction(db, async (trx) => {
    // First, so that of two requests at once the second hears that one is waiting (409); a
    // refusal by the daily count rolls the re-queue back.
    if (!(await requeueFinishedJob(trx, file.id, now))) {
      // A picture analysed in its upload's request has no job yet: this is its first.
      if (await hasJob(trx, file.id)) throw new Conflict(FILE_WAITING);
      try {
        await enqueueJob(trx, {
          fileId: file.id,
          priority,
          maxAttempts: app.config.jobMaxAttempts,
          now,
        });
      } catch (err) {
        // Two first requests at once: jobs.file_id is unique, so the second insert fails.
        if (isUniqueViolation(err)) throw new Conflict(FILE_WAITING);
        throw err;
      }
      await filesRepository(trx).markRequeued(file.id, now);
    }
    await enforceDailyCount(trx, { userId: file.user_id, quota, clock }, 'recount');
    await countUpload(trx, file.user_id, now);
  });
}
