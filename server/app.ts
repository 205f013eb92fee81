/**
 * The Koa app factory. Middleware order: errors (first, so everything below is mapped to one
 * body shape), request log, security headers, Origin check, JSON body, API routes, console.
 *
 * Route modules: each `server/routes/*.ts` exports `xRoutes(app: AppContext): Router`; add it to
 * ROUTE_MODULES below (the only list). See server/README.md.
 */
import path from 'node:path';
import Koa from 'koa';
import type { Router } from '@koa/router';
import type { AppContext } from './context.ts';
import { errorMiddleware } from './middleware/errors.ts';
import { requestLog } from './middleware/request-log.ts';
import { originCheck } from './middleware/csrf.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { jsonBody } from './middleware/body.ts';
import { staticConsole } from './middleware/static.ts';
import { answerCheck } from './middleware/answer-check.ts';
import { NotFound } from './errors.ts';
import { authRoutes } from './routes/auth.ts';
import { accountRoutes } from './routes/account.ts';
import { adminRoutes } from './routes/admin.ts';
import { adminGrantsRoutes } from './routes/admin-grants.ts';
import { publicConfigRoutes } from './routes/public-config.ts';
import { filesRoutes } from './routes/files.ts';
import { groupsRoutes } from './routes/groups.ts';
import { searchRoutes } from './routes/search.ts';
import { locationsRoutes } from './routes/locations.ts';
import { fileDeleteRoutes } from './routes/file-delete.ts';
import { hiveRoutes } from './routes/hive.ts';
import { correctionsRoutes } from './routes/corrections.ts';
import { calibrationRoutes } from './routes/calibration.ts';
import { openApiRoutes } from './routes/openapi.ts';

/** Every API route module, mounted in this order. */
export const ROUTE_MODULES: ReadonlyArray<(app: AppContext) => Router> = [
  authRoutes,
  accountRoutes,
  adminRoutes,
  adminGrantsRoutes,
  publicConfigRoutes,
  filesRoutes,
  groupsRoutes,
  searchRoutes,
  locationsRoutes,
  fileDeleteRoutes,
  hiveRoutes,
  correctionsRoutes,
  calibrationRoutes,
  openApiRoutes,
];

export interface AppOptions {
  /** Built console folder; default dist/console under the repository root. */
  consoleDir?: string;
  /** Tests: check every success against the route table's answer schema (answer-check.ts). */
  checkAnswers?: boolean;
}

export function createApp(app: AppContext, opts: AppOptions = {}): Koa {
  const koa = new Koa({ proxy: app.config.trustProxy });
  koa.silent = true; // errors are logged by errorMiddleware, once
  koa.use(errorMiddleware(app.logger));
  if (opts.checkAnswers) koa.use(answerCheck());
  koa.use(requestLog(app.logger));
  koa.use(securityHeaders(app.config));
  koa.use(originCheck(app.config.publicOrigin));
  koa.use(jsonBody(app.config.jsonBodyLimitBytes));
  for (const module of ROUTE_MODULES) {
    const router = module(app);
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  koa.use(
    staticConsole(opts.consoleDir ?? path.resolve(import.meta.dirname, '..', 'dist', 'console')),
  );
  // Unknown /api paths answer the JSON error shape rather than Koa's plain "Not Found".
  koa.use((ctx) => {
    if (ctx.path.startsWith('/api/') || ctx.path === '/api')
      throw new NotFound(`No such API call: ${ctx.method} ${ctx.path}`);
  });
  return koa;
}
