/**
 * Per-location entrance and history (issue 43), for the location's owner and administrators
 * (anyone else gets the 404 of a missing location):
 *
 * - `GET /api/locations/:id/entrance`: the entrance (or null), the frames it can be drawn on (a
 *   clean still of each of the location's latest analysed videos while its media is kept, its
 *   annotated preview after), whether a proposal exists, and the videos that would count again
 *   with the entrance (`recount`: media kept, not counted with it) with the uploads left today.
 * - `PUT /api/locations/:id/entrance` `{ entrance: { kind, points } }`: set it; later analyses
 *   of the location's videos count bees in and out across it.
 * - `DELETE /api/locations/:id/entrance`: clear it.
 * - `GET /api/locations/:id/entrance/proposal`: the entrance proposed from where the tracks of
 *   the location's latest analysed video with enough of them start and end, or null.
 * - `GET /api/locations/:id/history?from=&to=&tz=` and `/history.csv`: the location's series.
 * - `GET /api/files/:id/hive`: the location a file belongs to (for links), whether it has an
 *   entrance and whether the file was counted with it.
 * - `POST /api/files/:id/count-again`: a video back to the queue, to be counted with the
 *   location's current entrance (recount.ts says when that is allowed).
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { today } from '../clock.ts';
import { loadVisibleFile } from '../files/access.ts';
import { filesRepository } from '../files/files-repository.ts';
import { planFor } from '../files/plans.ts';
import { previewFor } from '../files/file-detail.ts';
import { hasMedia, rowSummary } from '../files/file-row.ts';
import { previewUrl } from '../files/file-record.ts';
import { bodyOf } from '../middleware/body.ts';
import { answer } from '../contract.ts';
import { NotFound } from '../errors.ts';
import {
  entranceFrom,
  LOCATION_NOT_FOUND,
  parseLocationId,
  saveEntrance,
  storedEntrance,
  visibleLocation,
} from '../locations/entrance.ts';
import type { LocationRow } from '../locations/entrance.ts';
import { historyCsv, historyPeriod, historyRange, locationHistory } from '../locations/history.ts';
import { countAgain, countedWith, whyNotCountAgain } from '../locations/recount.ts';
import { uploadQuota, uploadsCounted } from '../files/quotas.ts';
import { cleanStillUrl } from '../corrections/frames.ts';
import { locationNamed } from '../locations/locations-repository.ts';

/** How many recent videos the entrance editor offers to draw on. */
const FRAME_CHOICES = 8;

export function hiveRoutes(app: AppContext): Router {
  const router = new Router();

  /** The location's processed videos, newest first. */
  const recentVideos = (location: LocationRow, limit: number) =>
    filesRepository(app.db).recentProcessedVideos(location.user_id, location.name, limit);

  /** The location's videos that count again with its current entrance (media still kept). */
  const recountable = async (location: LocationRow) => {
    const rows = await filesRepository(app.db).finishedVideosWithMedia(
      location.user_id,
      location.name,
    );
    const now = app.clock.now().getTime();
    return rows.filter(
      (row) => !whyNotCountAgain(row, location.entrance, now, app.config.mediaRetentionHours),
    );
  };

  const locationJson = (l: LocationRow) => ({ id: l.id, name: l.name });

  router.get('/api/locations/:id/entrance', app.requireUser, async (ctx) => {
    const location = await visibleLocation(
      app.db,
      currentUser(ctx),
      parseLocationId(ctx.params.id),
    );
    const day = today(app.clock);
    const research = (await planFor(app.db, location.user_id, day)).researcher;
    const videos = await recentVideos(location, FRAME_CHOICES);
    const frames = videos.flatMap((row) => {
      const summary = rowSummary(row);
      const still = cleanStillUrl(row);
      const preview = previewFor(row, research) ? previewUrl(row.id) : null;
      if (!summary || (!still && !preview)) return [];
      return [
        {
          file_id: row.id,
          name: row.original_name,
          preview_url: preview,
          still_url: still,
          width: summary.width,
          height: summary.height,
          created_at: row.created_at,
        },
      ];
    });
    const quota = await uploadQuota(app.db, location.user_id, day, app.config.uploadQuotaScale);
    const used = await uploadsCounted(app.db, location.user_id, app.clock.now());
    ctx.body = {
      location: locationJson(location),
      entrance: location.entrance,
      frames,
      proposal_available: videos.some((v) => rowSummary(v)?.entranceProposal),
      recount: {
        videos: (await recountable(location)).map((row) => ({
          file_id: row.id,
          name: row.original_name,
          created_at: row.created_at,
        })),
        uploads_left_today: Math.max(0, quota.uploadsPerDay - used),
      },
    };
  });

  router.put('/api/locations/:id/entrance', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const id = parseLocationId(ctx.params.id);
    const body = bodyOf(ctx) as { entrance?: unknown } | null;
    const location = await visibleLocation(app.db, user, id);
    const entrance = entranceFrom(body?.entrance);
    await saveEntrance(app.db, location.id, entrance);
    app.logger.info('entrance set', { location: location.id, by: user.id, kind: entrance.kind });
    ctx.body = { location: locationJson(location), entrance };
  });

  router.delete('/api/locations/:id/entrance', app.requireUser, async (ctx) => {
    const location = await visibleLocation(
      app.db,
      currentUser(ctx),
      parseLocationId(ctx.params.id),
    );
    await saveEntrance(app.db, location.id, null);
    ctx.status = 204;
  });

  router.get('/api/locations/:id/entrance/proposal', app.requireUser, async (ctx) => {
    const location = await visibleLocation(
      app.db,
      currentUser(ctx),
      parseLocationId(ctx.params.id),
    );
    for (const row of await recentVideos(location, 50)) {
      const proposal = rowSummary(row)?.entranceProposal;
      if (proposal) {
        ctx.body = {
          proposal: {
            entrance: proposal.entrance,
            track_ends: proposal.trackEnds,
            of: proposal.of,
            file_id: row.id,
            file_name: row.original_name,
          },
        };
        return;
      }
    }
    ctx.body = {
      proposal: null,
      message:
        'No analysed video of this location shows enough bees coming and going at one place ' +
        'to propose an entrance. Draw it instead.',
    };
  });

  router.get('/api/locations/:id/history', app.requireUser, async (ctx) => {
    const location = await visibleLocation(
      app.db,
      currentUser(ctx),
      parseLocationId(ctx.params.id),
    );
    const range = historyRange(ctx.query);
    const points = await locationHistory(app.db, location, range);
    answer(ctx, 'GET /api/locations/:id/history', {
      location: locationJson(location),
      entrance: location.entrance,
      range,
      points,
      period: historyPeriod(points),
    });
  });

  router.get('/api/locations/:id/history.csv', app.requireUser, async (ctx) => {
    const location = await visibleLocation(
      app.db,
      currentUser(ctx),
      parseLocationId(ctx.params.id),
    );
    const range = historyRange(ctx.query);
    const points = await locationHistory(app.db, location, range);
    const stem = location.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'location';
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${stem}-history.csv"`);
    ctx.body = historyCsv(points);
  });

  router.get('/api/files/:id/hive', app.requireUser, async (ctx) => {
    const file = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    const row = await locationNamed(app.db, file.user_id, file.location);
    if (!row) throw new NotFound(LOCATION_NOT_FOUND);
    const entrance = storedEntrance(row.entrance_json);
    ctx.body = {
      location: { id: row.id, name: file.location },
      entrance_set: entrance !== null,
      counted_with_entrance: entrance !== null && countedWith(file, entrance),
      media_kept: hasMedia(file),
    };
  });

  router.post('/api/files/:id/count-again', app.requireUser, async (ctx) => {
    const file = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    await countAgain(app, file);
    ctx.status = 202;
    ctx.body = { message: 'The video is queued to be counted with the current entrance.' };
  });

  return router;
}
