/**
 * A location's calibration (issue 58): its owner (or an administrator) asks for a fit on the
 * owner's corrected frames there, reads the gain, turns it off, and exports it for the CLI. The
 * fit itself is the worker's (server/calibration/fit-job.ts), never a request's. Once it is turned
 * on or off, the location's files are counted again with it one by one
 * (`POST /api/files/:id/count-again/calibration`, server/locations/recount.ts).
 */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { answer, parseWith } from '../contract.ts';
import { ROUTES } from '../../contract/routes.ts';
import { Conflict, NotFound } from '../errors.ts';
import { bodyOf } from '../middleware/body.ts';
import { parseLocationId, visibleLocation } from '../locations/entrance.ts';
import { calibrationRepository } from '../calibration/calibration-repository.ts';
import { calibrationView } from '../calibration/view.ts';
import { loadVisibleFile } from '../files/access.ts';
import { countAgain } from '../locations/recount.ts';

export function calibrationRoutes(app: AppContext): Router {
  const router = new Router();
  const locationOf = (ctx: { params: { id?: string } } & Parameters<typeof currentUser>[0]) =>
    visibleLocation(app.db, currentUser(ctx), parseLocationId(ctx.params.id));

  router.get('/api/locations/:id/calibration', app.requireUser, async (ctx) => {
    const location = await locationOf(ctx);
    answer(ctx, 'GET /api/locations/:id/calibration', await calibrationView(app, location));
  });

  router.post('/api/locations/:id/calibration', app.requireUser, async (ctx) => {
    const location = await locationOf(ctx);
    const view = await calibrationView(app, location);
    if (view.why_not) throw new Conflict(view.why_not);
    const queued = await calibrationRepository(app.db).request(
      location.user_id,
      location.name,
      app.clock.now(),
    );
    if (!queued) throw new Conflict('A calibration of this location is already being fitted.');
    app.logger.info('calibration requested', { location: location.id, by: currentUser(ctx).id });
    answer(ctx, 'POST /api/locations/:id/calibration', await calibrationView(app, location));
  });

  router.patch('/api/locations/:id/calibration', app.requireUser, async (ctx) => {
    const location = await locationOf(ctx);
    const body = ROUTES['PATCH /api/locations/:id/calibration'].body;
    const { enabled } = parseWith(body, bodyOf(ctx));
    const changed = await calibrationRepository(app.db).setEnabled(
      location.user_id,
      location.name,
      enabled,
    );
    if (!changed) throw new NotFound('This location has no calibration yet.');
    answer(ctx, 'PATCH /api/locations/:id/calibration', await calibrationView(app, location));
  });

  router.get('/api/locations/:id/calibration.json', app.requireUser, async (ctx) => {
    const location = await locationOf(ctx);
    const row = await calibrationRepository(app.db).find(location.user_id, location.name);
    if (!row?.calibration) throw new NotFound('This location has no calibration yet.');
    const stem = location.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'location';
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="calibration-${stem}.json"`);
    ctx.body = JSON.stringify(row.calibration, null, 2);
  });

  router.post('/api/files/:id/count-again/calibration', app.requireUser, async (ctx) => {
    const file = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    await countAgain(app, file, 'calibration');
    answer(ctx, 'POST /api/files/:id/count-again/calibration', {
      message: 'The file is queued to be counted with its location’s current calibration.',
    });
  });

  return router;
}
