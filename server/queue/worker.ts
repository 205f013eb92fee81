/**
 * The analysis worker: `startWorker(app)` runs WORKER_CONCURRENCY poll loops that claim video
 * jobs from the durable queue, analyse them with the engine under a renewed lease, and write the
 * results (QUEUED -> PROCESSING -> PROCESSED / FAILED) through the jobs and files repositories.
 * The media retention sweep runs on its own schedule (server/files/retention-schedule.ts).
 * `stop()` cancels running analyses through their AbortSignal and hands their jobs back.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { AppContext } from '../context.ts';
import type { FileEngine } from '../files/engine.ts';
import { engineFor } from '../files/engine.ts';
import { filesRepository } from '../files/files-repository.ts';
import { resultColumns, savePreview } from '../files/results.ts';
import { ensureMediaDirs, mediaDirs, removeQuietly, storedPath } from '../files/storage.ts';
import { alertHornets } from '../files/hornet-alerts.ts';
import type { JobRow } from './jobs-repository.ts';
import {
  claimJob,
  completeJob,
  extendLease,
  failAttempt,
  failExhaustedJobs,
  releaseJob,
} from './jobs-repository.ts';
import { entranceForFile } from '../locations/entrance.ts';
import { calibrationRepository } from '../calibration/calibration-repository.ts';
import { runCalibrationJob } from '../calibration/fit-job.ts';
import { proposalFor } from '../locations/proposal.ts';
import { userMessageFor } from '../user-messages.ts';
import { ENGINE_ERRORS, engineErrorCode } from '../../engine/vocabulary.ts';
import { sleepUnlessAborted } from '../sleep.ts';

export interface WorkerOptions {
  /** Idle wait between polls of an empty queue. */
  pollMs?: number;
  /** Analysis loops; default WORKER_CONCURRENCY (at least 1). */
  concurrency?: number;
  /** An engine built by the caller; default the application's lazily created engine. */
  engine?: FileEngine;
  workerId?: string;
}

export interface WorkerHandle {
  stop(): Promise<void>;
}

/** Errors about the content itself: retrying cannot help, so the file fails at once. */
function isPermanent(err: unknown): boolean {
  const code = engineErrorCode(err);
  return code !== null && ENGINE_ERRORS[code].permanent;
}

/**
 * The file's `status_reason`, which its owner sees: a fixed sentence per error code (or the
 * engine's own words about the file's content), never the error's text, which may name server
 * paths. The whole error goes to the log.
 */
export function failureReason(err: unknown): string {
  return userMessageFor(err);
}

export function startWorker(app: AppContext, options: WorkerOptions = {}): WorkerHandle {
  const { config, db, clock, logger } = app;
  const workerId =
    options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leaseMs = config.jobLeaseSeconds * 1000;
  const pollMs = options.pollMs ?? 1000;
  const concurrency = Math.max(1, options.concurrency ?? config.workerConcurrency);
  const dirs = mediaDirs(config.dataDir);
  const running = new Set<AbortController>();
  const stopController = new AbortController();
  let stopping = false;

  const sleep = (ms: number) => sleepUnlessAborted(ms, stopController.signal);

  const getEngine = (): Promise<FileEngine> =>
    options.engine ? Promise.resolve(options.engine) : engineFor(app);

  async function runJob(engine: FileEngine, job: JobRow): Promise<void> {
    const controller = new AbortController();
    running.add(controller);
    let leaseLost = false;
    // One renewal at a time: while the database is away, renewals would otherwise pile up in
    // the connection pool's queue ahead of the job's own writes.
    let renewing = false;
    const heartbeat = setInterval(
      () => {
        if (renewing) return;
        renewing = true;
        extendLease(db, job, { now: clock.now(), leaseMs })
          .then(
            (held) => {
              if (!held && !controller.signal.aborted) {
                leaseLost = true;
                controller.abort(new Error('lease lost'));
              }
            },
            (err: unknown) =>
              logger.warn('lease renewal failed', { job: job.id, error: String(err) }),
          )
          .finally(() => (renewing = false));
      },
      Math.max(250, Math.floor(leaseMs / 3)),
    );
    let previewPaths: string[] = [];
    try {
      const files = filesRepository(db);
      await files.markProcessing(job.file_id, clock.now());
      const file = await files.find(job.file_id);
      if (!file) {
        await failAttempt(db, job, {
          reason: 'The file no longer exists.',
          permanent: true,
          now: clock.now(),
        });
        return;
      }
      if (file.media_deleted_at) {
        await failAttempt(db, job, {
          reason: 'The media file was deleted.',
          permanent: true,
          now: clock.now(),
        });
        return;
      }
      const started = Date.now();
      // The location's entrance as it is now: re-analysing later videos uses the latest one.
      const entrance = await entranceForFile(db, file);
      // The owner's calibration of this location as it is now (issue 58); never another user's.
      const calibration = await calibrationRepository(db).active(file.user_id, file.location);
      const result = await engine.analyse(storedPath(dirs.media, file.stored_name), {
        signal: controller.signal,
        keepPreviewFrame: true,
        ...(entrance ? { entrance } : {}),
        ...(calibration ? { calibration } : {}),
      });
      const preview = await savePreview(dirs, result);
      previewPaths = preview?.paths ?? [];
      const entranceProposal = await proposalFor(result).catch((err: unknown) => {
        logger.warn('entrance proposal failed', { file: file.id, error: String(err) });
        return undefined;
      });
      const done = await completeJob(
        db,
        job,
        resultColumns(result, preview?.name ?? null, { entranceProposal }),
        clock.now(),
      );
      if (!done) {
        logger.warn('job lease lost before completion; results discarded', { job: job.id });
        await Promise.all(previewPaths.map((p) => removeQuietly(p)));
        return;
      }
      if (file.preview_name && file.preview_name !== preview?.name) {
        await removeQuietly(storedPath(dirs.previews, file.preview_name));
        await removeQuietly(storedPath(dirs.honeybeePreviews, file.preview_name));
        await removeQuietly(storedPath(dirs.hornetPreviews, file.preview_name));
      }
      logger.info('job done', {
        job: job.id,
        file: file.id,
        ms: Date.now() - started,
        attempt: job.attempts,
      });
      try {
        await alertHornets(app, file.id);
      } catch (err) {
        logger.error('hornet alert failed', { file: file.id, error: String(err) });
      }
    } catch (err) {
      await Promise.all(previewPaths.map((p) => removeQuietly(p)));
      if (leaseLost) {
        logger.warn('job abandoned: lease lost', { job: job.id });
      } else if (stopping && controller.signal.aborted) {
        await releaseJob(db, job, clock.now());
        logger.info('job handed back on stop', { job: job.id });
      } else {
        const reason = failureReason(err);
        const state = await failAttempt(db, job, {
          reason,
          permanent: isPermanent(err),
          now: clock.now(),
        });
        logger.warn('job attempt failed', {
          job: job.id,
          attempt: job.attempts,
          state,
          reason,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
      }
    } finally {
      clearInterval(heartbeat);
      running.delete(controller);
    }
  }

  /**
   * Database outages must not end a loop: every failure is logged and the loop waits, doubling
   * the wait (up to 30 s) while failures repeat, then carries on. A job whose results could not
   * be written keeps its lease and is picked up again once the lease runs out.
   */
  let failures = 0;
  const backOff = async (what: string, err: unknown): Promise<void> => {
    failures += 1;
    const waitMs = Math.min(30_000, pollMs * 2 ** Math.min(failures - 1, 5));
    logger.error(what, { error: String(err), retryInMs: waitMs, failures });
    await sleep(waitMs);
  };

  async function loop(slot: number): Promise<void> {
    while (!stopping) {
      let engine: FileEngine;
      try {
        engine = await getEngine();
      } catch (err) {
        // No model / no ffmpeg: leave the jobs queued rather than failing them one by one.
        logger.error('analysis engine unavailable; jobs stay queued', { error: String(err) });
        await sleep(Math.max(pollMs, 5000));
        continue;
      }
      let job: JobRow | null = null;
      try {
        if (slot === 0) await failExhaustedJobs(db, clock.now());
        job = await claimJob(db, { workerId, now: clock.now(), leaseMs });
      } catch (err) {
        await backOff('claiming a job failed; the worker waits and tries again', err);
        continue;
      }
      failures = 0;
      if (!job) {
        // Between files, the first slot fits a queued calibration, if one waits.
        const fitted =
          slot === 0 &&
          (await runCalibrationJob(app, engine, stopController.signal).catch((err: unknown) => {
            logger.error('calibration job failed', { error: String(err) });
            return false;
          }));
        if (!fitted) await sleep(pollMs);
        continue;
      }
      try {
        await runJob(engine, job);
      } catch (err) {
        // Recording the outcome failed (database unavailable): the lease will run out and the
        // job be claimed again.
        await backOff('recording a job failed; the job is retried after its lease', err);
      }
    }
  }

  const loops = (async () => {
    await ensureMediaDirs(dirs);
    await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
  })();
  logger.info('worker started', { workerId, concurrency });

  return {
    async stop() {
      stopping = true;
      stopController.abort();
      for (const c of running) c.abort(new Error('worker stopping'));
      await loops;
    },
  };
}
