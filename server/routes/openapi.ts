/** GET /api/openapi.json: the API's OpenAPI 3.1 document, generated from the contract. Open. */
import { Router } from '@koa/router';
import { openApiDocument } from '../../contract/openapi.ts';
import type { AppContext } from '../context.ts';
import { answer } from '../contract.ts';

export function openApiRoutes(_app: AppContext): Router {
  const router = new Router();
  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get('/api/openapi.json', (ctx) => {
    // Generated on first use: the document is the same for the life of the process.
    document ??= openApiDocument();
    answer(ctx, 'GET /api/openapi.json', document);
  });
  return router;
}
