/**
 * Cross-site request protection (decisions.md 1), on top of the SameSite=Lax cookie: a
 * state-changing request whose Origin (or, without Origin, Referer) names another site is
 * refused with 403. Requests with neither header (curl, the CLI, same-origin fetches of some
 * browsers) pass; browsers always send Origin on cross-site POSTs.
 */
import type { Middleware } from 'koa';
import { Forbidden } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(publicOrigin: string): Middleware {
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) {
      await next();
      return;
    }
    const origin = ctx.get('origin') || originOf(ctx.get('referer'));
    if (origin) {
      const allowed = new Set([publicOrigin, `${ctx.protocol}://${ctx.host}`]);
      if (!allowed.has(origin)) throw new Forbidden('Cross-site request refused');
    }
    await next();
  };
}

function originOf(referer: string): string {
  if (!referer) return '';
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}
