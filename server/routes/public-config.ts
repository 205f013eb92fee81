/** GET /api/public-config: the configurable content the console shows (decisions.md 6). Open. */
import { Router } from '@koa/router';
import type { AppContext } from '../context.ts';

export function publicConfigRoutes(app: AppContext): Router {
  const router = new Router();
  router.get('/api/public-config', (ctx) => {
    ctx.body = {
      contact_email: app.config.contactEmail,
      research_article_url: app.config.researchArticleUrl,
      intro_video_url: app.config.introVideoUrl,
    };
  });
  return router;
}
