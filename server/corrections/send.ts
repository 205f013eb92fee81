/** Sends one stored still (small JPEGs: no ranges needed). */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Context } from 'koa';
import { NotFound } from '../errors.ts';

export async function sendFile(ctx: Context, file: string, contentType: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new NotFound("This frame's picture is no longer available.");
  ctx.set('Cache-Control', 'private, max-age=0');
  ctx.type = contentType;
  ctx.length = info.size;
  ctx.body = createReadStream(file);
}
