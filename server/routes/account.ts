/** The signed-in user's plan limits and hive locations (spec 7). Bodies' email_address is ignored. */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { today } from '../clock.ts';
import { activeProducts, maxFileSize } from '../users/plans.ts';
import { userLocations } from '../users/repo.ts';

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

  return router;
}
