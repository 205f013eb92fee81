/**
 * Hornet alerts (decisions.md 4): a Researcher is e-mailed when a processed video shows a hornet
 * that stays: one hornet track hit by a hornet box scored at least the alert score on at
 * least HORNET_ALERT_FRAMES sampled frames (one high-scored box on one frame is too often a
 * wasp or a shadow). The e-mail names the time in the clip and links the frame with the
 * highest-scored hornet (the file's preview for results stored without one) and the report. At most one alert per location per hour, none for users who turned alerts off, and
 * the hornet_alerts row (unique file_id) is written before sending, so a retried or duplicated
 * completion never e-mails twice.
 */
import type { AppContext } from '../context.ts';
import { today } from '../clock.ts';
import { planFor } from './plans.ts';
import type { StoredHornetTrack, StoredSummary } from './file-row.ts';
import { rowSummary } from './file-row.ts';
import { claimHornetAlert, fileWithOwner } from './hornet-alerts-repository.ts';

/**
 * The score a hornet box needs to count towards an alert, for results of a model whose card names
 * none (`thresholds.alert.hornet`, stored with the result as `summary.model.alertScores`): a
 * card's hornet display threshold is tuned for counting, not for waking a beekeeper. A card's own
 * alert score wins, since it was chosen for that model's scores.
 */
export const DEFAULT_HORNET_ALERT_SCORE = 0.5;
/** Sampled frames a hornet track must be seen on at that score. */
export const HORNET_ALERT_FRAMES = 3;
/** At most one alert per location in this window. */
export const ALERT_WINDOW_MS = 60 * 60 * 1000;

export interface HornetSighting {
  /** Seconds into the clip of the track's first qualifying frame. */
  timeS: number;
  frames: number;
  bestScore: number;
}

/** The earliest hornet track that persists above the alert score, or null. */
export function hornetSighting(
  tracks: readonly StoredHornetTrack[],
  minScore = DEFAULT_HORNET_ALERT_SCORE,
  minFrames = HORNET_ALERT_FRAMES,
): HornetSighting | null {
  let found: HornetSighting | null = null;
  for (const track of tracks) {
    const hits = track.hits.filter((h) => h.score >= minScore);
    if (hits.length < minFrames) continue;
    const timeS = Math.min(...hits.map((h) => h.timeS));
    if (!found || timeS < found.timeS)
      found = { timeS, frames: hits.length, bestScore: Math.max(...hits.map((h) => h.score)) };
  }
  return found;
}

/** The alert score of the model that analysed the file. */
export function hornetAlertScore(summary: Pick<StoredSummary, 'model'>): number {
  return summary.model.alertScores?.hornet ?? DEFAULT_HORNET_ALERT_SCORE;
}

/** `1:05` style clip time. */
export function clipTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export async function alertHornets(app: AppContext, fileId: number): Promise<boolean> {
  const row = await fileWithOwner(app.db, fileId);
  if (!row || row.status !== 'PROCESSED' || !row.hornet_alerts) return false;
  const summary = rowSummary(row);
  const sighting = summary && hornetSighting(summary.hornetTracks ?? [], hornetAlertScore(summary));
  if (!sighting) return false;
  const userId = Number(row.user_id);
  if (!(await planFor(app.db, userId, today(app.clock))).researcher) return false;

  const now = app.clock.now();
  const sent = await claimHornetAlert(app.db, {
    fileId,
    userId,
    location: row.location,
    since: new Date(now.getTime() - ALERT_WINDOW_MS),
    now,
  });
  if (!sent) return false;

  const at = clipTime(sighting.timeS);
  const base = `${app.config.publicUrl}/api/files/${row.id}`;
  const frameS = rowSummary(row)?.hornetPreviewTimeS;
  const frame =
    frameS === undefined
      ? `Annotated preview of the clip: ${base}/preview.jpg`
      : `The clearest hornet frame (${clipTime(frameS)}): ${base}/hornet.jpg`;
  await app.mailer.send({
    to: row.owner_email,
    subject: `Hornet alert: a hornet at ${row.location}, ${at} into ${row.original_name}`,
    text: [
      `HiveSight saw a hornet in ${row.original_name} (location ${row.location}) from ${at} into the clip,`,
      `on ${sighting.frames} sampled frames (best score ${sighting.bestScore.toFixed(2)}).`,
      '',
      frame,
      `Report: ${base}/report.csv`,
      '',
      'You get at most one hornet alert per location per hour. To stop these e-mails, turn',
      `hornet alerts off on the Plans page: ${app.config.publicUrl}/beeplans`,
    ].join('\n'),
  });
  return true;
}
