/**
 * Deleting a file (its owner or an administrator): the row goes with its queued job and hornet
 * alert, then its media, previews and frame stills leave the disk. Lists, searches, exports and groupings read
 * the files table, so the file stops showing everywhere at once. The rows go first: a crash
 * between the two steps leaves an unreferenced media file, never a record without its media.
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { loadVisibleFile } from '../files/access.ts';
import { inTransaction } from '../db.ts';
import { correctionRows } from '../corrections/corrections-repository.ts';
import { deleteHornetAlertsOf } from '../files/hornet-alerts-repository.ts';
import { filesRepository } from '../files/files-repository.ts';
import { deleteJobsOfFile } from '../queue/jobs-repository.ts';
import { mediaDirs, removeQuietly, storedPath } from '../files/storage.ts';
import { removeStillsOf } from '../corrections/stills.ts';

export function fileDeleteRoutes(app: AppContext): Router {
  const router = new Router();
  const dirs = mediaDirs(app.config.dataDir);

  router.delete('/api/files/:id', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const row = await loadVisibleFile(app.db, user, ctx.params.id);
    const corrected = await correctionRows(app.db, row.id);
    await inTransaction(app.db, async (trx) => {
      await deleteJobsOfFile(trx, row.id);
      await deleteHornetAlertsOf(trx, row.id);
      await filesRepository(trx).delete(row.id);
    });
    await removeQuietly(storedPath(dirs.media, row.stored_name));
    // Every copy of the preview lives under the same name: full, honeybee-only, hornet frame.
    if (row.preview_name) {
      for (const dir of [dirs.previews, dirs.honeybeePreviews, dirs.hornetPreviews])
        await removeQuietly(storedPath(dir, row.preview_name));
    }
    // Its frames' stills too (corrected ones included: their rows went with the file).
    await removeStillsOf(
      app.config.dataDir,
      row,
      corrected.map((c) => c.still_name),
    );
    app.logger.info('file deleted', { file: row.id, by: user.id });
    ctx.body = { message: `File ${row.original_name} was deleted.` };
  });

  return router;
}
