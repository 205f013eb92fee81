/**
 * Serves the built console (dist/console) through koa-send, which resolves paths inside the
 * root (no `..`, no dotfiles) and sets types and lengths. Hashed assets (assets/*) are cached
 * for a year as immutable; everything else revalidates. A GET outside /api that names no file
 * gets index.html, so client-side routes survive a reload; a missing name with an extension is
 * a real 404.
 */
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import send from 'koa-send';

const YEAR_MS = 365 * 24 * 3600 * 1000;

export function staticConsole(root: string): Middleware {
  const rootAbs = path.resolve(root);
  return async (ctx, next) => {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      ctx.path === '/api' ||
      ctx.path.startsWith('/api/')
    ) {
      await next();
      return;
    }
    if (ctx.path !== '/' && (await sendFile(ctx, rootAbs, ctx.path))) return;
    const ext = path.extname(ctx.path);
    if (ext !== '' && ext !== '.html') {
      await next();
      return;
    }
    if (!(await sendFile(ctx, rootAbs, '/index.html'))) await next();
  };
}

/** True when the file was sent; false for anything koa-send would refuse or cannot find. */
async function sendFile(ctx: Context, root: string, rel: string): Promise<boolean> {
  const immutable = rel.startsWith('/assets/');
  try {
    const sent = await send(ctx, rel, {
      root,
      index: false,
      hidden: false,
      immutable,
      maxage: immutable ? YEAR_MS : 0,
      setHeaders: (res) => {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        if (!immutable) res.setHeader('Cache-Control', 'no-cache');
      },
    });
    return typeof sent === 'string' && sent !== ''; // undefined: a folder or a dotfile
  } catch {
    // 400 (malformed path), 403 (outside the root, a dotfile), 404, ENAMETOOLONG, a folder
    return false;
  }
}
