/**
 * The retention schedule on SQLite and PostgreSQL: it sweeps at once, sweeps again every
 * `sweepMs` (media that fell due later goes too), and stop() ends it promptly. What one sweep
 * deletes is tested in queue-worker.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { filesRepository } from '../../server/files/files-repository.ts';
import { startRetentionSchedule } from '../../server/files/retention-schedule.ts';
import { waitFor } from '../support/wait.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

describe.each(DB_KINDS)('retention schedule on %s', (kind) => {
  const clock = new ManualClock('2030-01-01T12:00:00.000Z');
  const t = useTestServer(kind, { clock });

  it.skipIf(!dbAvailable(kind))('sweeps now and every sweepMs until stopped', async () => {
    const { id } = await signedInUser(t.server);
    const video = (statusTime: string) =>
      createFile(t.server, id, {
        kind: 'video',
        format: 'mp4',
        media: Buffer.from('video'),
        status_time: statusTime,
      });
    const files = filesRepository(t.server.app.db);
    const gone = async (fileId: number) => (await files.find(fileId))?.media_deleted_at != null;

    const old = await video('2026-01-01T00:00:00.000Z');
    const schedule = startRetentionSchedule(t.server.app, { sweepMs: 100 });
    try {
      await waitFor('the first sweep', () => gone(old));
      // Finished "now": due only once the clock has moved past the retention time.
      const later = await video(clock.now().toISOString());
      expect(await gone(later)).toBe(false);
      clock.advance(10 * 365 * 24 * 3600_000);
      await waitFor('a later sweep', () => gone(later));
    } finally {
      const stopped = Date.now();
      await schedule.stop();
      expect(Date.now() - stopped).toBeLessThan(5_000);
    }
  });
});
