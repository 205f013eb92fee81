/**
 * Runs the retention sweep (retention.ts) now and then every `sweepMs` until stopped. Started
 * beside the analysis worker (server.ts `loadWorker`), so `hivesight serve` and `hivesight
 * worker` sweep as before; a failed sweep is logged and the next one runs on time.
 */
import type { AppContext } from '../context.ts';
import { sweepRetention } from './retention.ts';
import { sleepUnlessAborted } from '../sleep.ts';

export interface RetentionSchedule {
  stop(): Promise<void>;
}

export function startRetentionSchedule(
  app: Pick<AppContext, 'config' | 'db' | 'clock' | 'logger'>,
  options: { sweepMs?: number } = {},
): RetentionSchedule {
  const { config, db, clock, logger } = app;
  const sweepMs = options.sweepMs ?? 60_000;
  const stopController = new AbortController();

  const sleep = (ms: number) => sleepUnlessAborted(ms, stopController.signal);

  const loop = (async () => {
    while (!stopController.signal.aborted) {
      try {
        const deleted = await sweepRetention(db, {
          dataDir: config.dataDir,
          retentionHours: config.mediaRetentionHours,
          clock,
        });
        if (deleted > 0) logger.info('retention: video media deleted', { files: deleted });
      } catch (err) {
        logger.error('retention sweep failed', { error: String(err) });
      }
      await sleep(sweepMs);
    }
  })();

  return {
    async stop() {
      stopController.abort();
      await loop;
    },
  };
}
