/** One log line per API request: method, path, status, duration (never bodies or cookies). */
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import { classify } from './errors.ts';

export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (err) {
      status = classify(err).status;
      throw err;
    } finally {
      if (ctx.path.startsWith('/api/')) {
        logger.info('request', {
          method: ctx.method,
          path: ctx.path,
          status: status ?? ctx.status,
          ms: Math.round(performance.now() - start),
        });
      }
    }
  };
}
