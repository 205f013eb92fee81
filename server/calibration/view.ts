/** A location's calibration as its page shows it (contract/schemas/calibration.ts). */
import type { Db } from '../db.ts';
import {
  calibrationLabel,
  calibrationShortfall,
  MIN_CALIBRATION_FILES,
  MIN_CALIBRATION_FRAMES,
} from '../../engine/vocabulary.ts';
import type { CalibrationGain } from '../../engine/vocabulary.ts';
import type { CalibrationAnswer } from '../../contract/schemas/calibration.ts';
import type { LocationRow } from '../locations/entrance.ts';
import { calibrationRepository, correctedStillsOf } from './calibration-repository.ts';
import type { Clock } from '../clock.ts';
import { today } from '../clock.ts';
import type { Config } from '../config.ts';
import { filesRepository } from '../files/files-repository.ts';
import { uploadQuota, uploadsCounted } from '../files/quotas.ts';
import { whyNotCountAgainWithCalibration } from '../locations/recount.ts';

const pct = (v: number) => `${Math.round(v)} %`;

/** The gain in words: with and without, leave one frame out, or why it is not applied. */
export function gainSentence(gain: CalibrationGain): string {
  const figures =
    `Leave one frame out on ${gain.frames} corrected frames, the count error is ` +
    `${pct(gain.uncalibrated_count_error_pct)} without the calibration and ` +
    `${pct(gain.calibrated_count_error_pct)} with it`;
  return gain.significant
    ? `${figures}.`
    : `${figures}: the difference is inside the noise (±${pct(gain.noise_pct)}), so the calibration is not applied.`;
}

export async function calibrationView(
  app: { db: Db; clock: Clock; config: Pick<Config, 'mediaRetentionHours' | 'uploadQuotaScale'> },
  location: LocationRow,
): Promise<CalibrationAnswer> {
  const { db } = app;
  const frames = await correctedStillsOf(db, location.user_id, location.name);
  const row = await calibrationRepository(db).find(location.user_id, location.name);
  const c = row?.calibration ?? null;
  const applied = Boolean(row?.enabled && c?.gain.significant);
  const now = app.clock.now();
  const files = await filesRepository(db).finishedFilesWithMedia(location.user_id, location.name);
  const recountable = files.filter(
    (f) =>
      !whyNotCountAgainWithCalibration(
        f,
        applied ? c : null,
        now.getTime(),
        app.config.mediaRetentionHours,
      ),
  );
  const day = today(app.clock);
  const quota = await uploadQuota(db, location.user_id, day, app.config.uploadQuotaScale);
  const used = await uploadsCounted(db, location.user_id, now);
  return {
    location: { id: location.id, name: location.name },
    corrected_frames: frames.length,
    corrected_files: new Set(frames.map((f) => f.file)).size,
    min_frames: MIN_CALIBRATION_FRAMES,
    min_files: MIN_CALIBRATION_FILES,
    why_not: calibrationShortfall(frames),
    state: row?.state ?? 'none',
    error: row?.error ?? null,
    enabled: row?.enabled ?? false,
    applied,
    label: c ? calibrationLabel(c) : null,
    gain: c?.gain ?? null,
    sentence: c ? gainSentence(c.gain) : null,
    parameters: c ? { zoom: c.zoom, thresholds: c.thresholds } : null,
    recount: {
      files: recountable.map((f) => ({
        file_id: f.id,
        name: f.original_name,
        created_at: f.created_at,
      })),
      uploads_left_today: Math.max(0, quota.uploadsPerDay - used),
    },
  };
}
