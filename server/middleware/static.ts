/**
 * Serves the built console (dist/console) with SPA fallback: a GET outside /api that names no
 * file gets index.html, so client-side routes survive a reload. Paths are resolved inside the
 * root only (no `..`, no absolute paths, no dotfiles). Hashed assets (assets/*) are cached for a
 * year; index.html never.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

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
    let rel: string;
    try {
      rel = decodeURIComponent(ctx.path);
    } catch {
      await next();
      return;
    }
    const file = resolveInside(rootAbs, rel);
    const hit = file ? await statFile(file) : null;
    if (file && hit) {
      const immutable = rel.startsWith('/assets/');
      ctx.set('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      send(ctx, file, hit.size);
      return;
    }
    // A name with an extension that does not exist is a real 404, not a client route.
    if (path.extname(rel) !== '' && !rel.endsWith('.html')) {
      await next();
      return;
    }
    const index = path.join(rootAbs, 'index.html');
    const indexStat = await statFile(index);
    if (!indexStat) {
      await next();
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    send(ctx, index, indexStat.size);
  };
}

function resolveInside(root: string, rel: string): string | null {
  if (rel.includes('\0')) return null;
  const segments = rel.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s.startsWith('.') || s.includes('\\'))) return null;
  if (segments.length === 0) return null;
  const full = path.resolve(root, ...segments);
  return full.startsWith(root + path.sep) ? full : null;
}

async function statFile(file: string): Promise<fs.Stats | null> {
  try {
    const st = await fsp.stat(file);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

function send(ctx: Parameters<Middleware>[0], file: string, size: number): void {
  ctx.type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  ctx.length = size;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = ctx.method === 'HEAD' ? null : fs.createReadStream(file);
  if (ctx.method === 'HEAD') ctx.length = size;
}
