/** The signed-in user's plan limits and hive locations (spec 7). Bodies' email_address is ignored. */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { bodyOf } from '../middleware/body.ts';
import { today } from '../clock.ts';
import { activeProducts, maxFileSize } from '../users/plans.ts';
import { hornetAlertsOn, setHornetAlerts, userLocations } from '../users/users-repository.ts';

export function accountRoutes(app: AppContext): Router {
  const router = new Router();

  router.post('/api/valid-products-and-file-size', app.requireUser, async (ctx) => {
    const products = await activeProducts(app.db, currentUser(ctx).id, today(app.clock));
    ctx.body = { valid_products: products, max_file_size: maxFileSize(products) };
  });

  // A list of arrays, the first element being the location name (spec 3).
  router.post('/api/get-locations-user/', app.requireUser, async (ctx) => {
    ctx.body = (await userLocations(app.db, currentUser(ctx).id)).map((name) => [name]);
  });

  // The user's own settings: hornet alert e-mails on or off (Researcher plan alerts).
  router.get('/api/account/settings', app.requireUser, async (ctx) => {
    ctx.body = await settingsOf(app, currentUser(ctx).id);
  });

  router.post('/api/account/settings', app.requireUser, async (ctx) => {
    const { hornet_alerts: hornetAlerts } = bodyOf(ctx);
    if (typeof hornetAlerts !== 'boolean') {
      const message = 'hornet_alerts must be true or false.';
      throw new ValidationError(message, { hornet_alerts: message });
    }
    const userId = currentUser(ctx).id;
    await setHornetAlerts(app.db, userId, hornetAlerts);
    ctx.body = await settingsOf(app, userId);
  });

  return router;
}

async function settingsOf(app: AppContext, userId: number): Promise<{ hornet_alerts: boolean }> {
  return { hornet_alerts: await hornetAlertsOn(app.db, userId) };
}
