/**
 * The worker's calibration jobs (issue 58): a queued fit is taken, the owner's corrected stills
 * at that location are fitted on by the engine (in its thread: several detector passes a
 * still, never in a request), and the calibration or the reason it failed is written.
 */
import { calibrationShortfall } from '../../engine/vocabulary.ts';
import type { AppContext } from '../context.ts';
import type { FileEngine } from '../files/engine.ts';
import { storedPath } from '../files/storage.ts';
import { stillsDir } from '../corrections/stills.ts';
import { calibrationRepository, correctedStillsOf } from './calibration-repository.ts';

/** Runs one queued fit, if any; true when one was run. */
export async function runCalibrationJob(
  app: Pick<AppContext, 'db' | 'clock' | 'logger' | 'config'>,
  engine: FileEngine,
  signal?: AbortSignal,
): Promise<boolean> {
  const repo = calibrationRepository(app.db);
  const job = await repo.claim();
  if (!job) return false;
  const started = Date.now();
  try {
    const frames = await correctedStillsOf(app.db, job.userId, job.location);
    const shortfall = calibrationShortfall(frames);
    if (shortfall) {
      await repo.fail(job.id, shortfall);
      return true;
    }
    if (!engine.calibrate) throw new Error('This engine cannot calibrate.');
    const dir = stillsDir(app.config.dataDir);
    const calibration = await engine.calibrate(
      frames.map((f) => ({ path: storedPath(dir, f.stillName), file: f.file, truth: f.labels })),
      {
        location: job.location,
        date: app.clock.now().toISOString().slice(0, 10),
        ...(signal ? { signal } : {}),
      },
    );
    await repo.complete(job.id, calibration, app.clock.now());
    app.logger.info('calibration fitted', {
      calibration: job.id,
      frames: calibration.frames,
      ms: Date.now() - started,
      significant: calibration.gain.significant,
    });
  } catch (err) {
    if (signal?.aborted) {
      await repo.requeueFitting();
      return true;
    }
    app.logger.warn('calibration failed', { calibration: job.id, error: String(err) });
    await repo.fail(job.id, 'The calibration could not be fitted; try again later.');
  }
  return true;
}
