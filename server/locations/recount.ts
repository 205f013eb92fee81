/**
 * Counting a video again with its location's current entrance (issue 43): a video analysed
 * before the entrance was set (or moved) goes back to the queue while its media is kept (24 h
 * after processing by default). Allowed only when the entrance differs from the one the video
 * was counted with, so it cannot be used to re-queue a video without end.
 */
import type { Knex } from 'knex';
import type { Entrance } from '../../engine/vocabulary.ts';
import { Conflict } from '../errors.ts';
import type { FileRow } from '../files/records.ts';
import { requeueFinishedJob } from '../queue/jobs-repository.ts';
import { rowSummary } from '../files/records.ts';
import { hasMedia } from '../files/answer-forms.ts';
import { entranceForFile } from './entrance.ts';

export const sameEntrance = (a: Entrance | null | undefined, b: Entrance | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether the file was counted with the entrance its location has now. */
export function countedWith(file: FileRow, entrance: Entrance | null): boolean {
  return sameEntrance(rowSummary(file)?.traffic?.entrance, entrance);
}

/** Puts the video's job back in the queue, or says in a 409 why it cannot be counted again. */
export async function countAgain(db: Knex, file: FileRow, now: Date): Promise<void> {
  if (file.kind !== 'video')
    throw new Conflict('Only videos are counted in and out; a picture has no traffic.');
  if (file.status !== 'PROCESSED' && file.status !== 'FAILED')
    throw new Conflict('This video is still being analysed. Try again once it is processed.');
  if (!hasMedia(file))
    throw new Conflict(
      'The video was erased after processing, so it cannot be counted again. Upload it again.',
    );
  const entrance = await entranceForFile(db, file);
  if (!entrance)
    throw new Conflict(`"${file.location}" has no entrance yet. Set its entrance first.`);
  if (countedWith(file, entrance))
    throw new Conflict('This video was already counted with the current entrance.');
  await db.transaction(async (trx) => {
    if (!(await requeueFinishedJob(trx, file.id, now)))
      throw new Conflict('This video is still being analysed. Try again once it is processed.');
  });
}
