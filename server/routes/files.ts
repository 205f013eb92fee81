/**
 * Files API: upload (spec 7), the signed-in user's file list, upload dates and descriptions of
 * listed files, and per-file detail, media, report CSV and preview (decisions.md 1b). Owners and admins only; others get a 404.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../context.ts';
import { currentUser } from '../context.ts';
import { today } from '../clock.ts';
import { Conflict, NotFound, ValidationError } from '../errors.ts';
import { frameCsv, summaryCsv } from '../../engine/vocabulary.ts';
import { loadVisibleFile } from '../files/access.ts';
import { hasMedia, rowFrames, rowSummary } from '../files/file-row.ts';
import { planFor } from '../files/plans.ts';
import type { FileRow } from '../files/file-row.ts';
import { fileDetail, previewFor } from '../files/file-detail.ts';
import { isoWithOffset } from '../files/file-record.ts';
import { filesRepository } from '../files/files-repository.ts';
import { MAX_SUMMARY_FILES, parseIds, summaryInputs } from '../files/summary.ts';
import { CONTENT_TYPES, mediaDirs, storedPath } from '../files/storage.ts';
import { handleUpload } from '../files/upload.ts';
import { ownFileRecords } from '../files/file-lists-repository.ts';
import { answer } from '../contract.ts';

export function filesRoutes(app: AppContext): Router {
  const router = new Router();
  const dirs = mediaDirs(app.config.dataDir);

  /** Research classes are shown when the file's OWNER holds Researcher (not the viewer). */
  const ownerIsResearcher = async (row: FileRow) =>
    (await planFor(app.db, row.user_id, today(app.clock))).researcher;

  router.post('/api/upload_docs/', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const row = await handleUpload(app, ctx, user);
    answer(ctx, 'POST /api/upload_docs/', {
      message: 'File uploaded',
      file: fileDetail(row, { includeResearch: await ownerIsResearcher(row) }),
    });
  });

  router.post('/api/get-uploaded-files-list/', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const list = await ownFileRecords(app.readDb, user.id);
    if (typeof list === 'string') ctx.type = 'json';
    ctx.body = list;
  });

  const sendSummary = async (ctx: Context, rows: FileRow[], name: string) => {
    const inputs = await summaryInputs(app.db, app.clock, rows);
    if (inputs.length === 0)
      throw new Conflict('None of these files is processed yet, so there is nothing to summarise.');
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.body = summaryCsv(inputs);
  };

  // Before /api/files/:id, which would take "summary.csv" for an id.
  router.get('/api/files/summary.csv', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const ids = parseIds(ctx.query.ids);
    if (!ids) throw new ValidationError('Name the files to summarise: ?ids=1,2,3.');
    if (ids.length > MAX_SUMMARY_FILES)
      throw new ValidationError(`A summary can name at most ${MAX_SUMMARY_FILES} files.`);
    const rows = await filesRepository(app.db).findMany(
      ids,
      user.role === 'ADMIN' ? null : user.id,
    );
    if (rows.length !== ids.length) throw new NotFound('File not found.');
    await sendSummary(ctx, rows, 'summary.csv');
  });

  // When each file was uploaded and what it says, for screens whose list records hold neither
  // (File Grouping). Files that are gone or not the user's are left out, not refused: the list
  // the screen holds may be a minute old.
  router.get('/api/files/upload-facts', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    const ids = parseIds(ctx.query.ids);
    if (!ids) throw new ValidationError('Name the files: ?ids=1,2,3.');
    if (ids.length > MAX_SUMMARY_FILES)
      throw new ValidationError(`Ask for at most ${MAX_SUMMARY_FILES} files at a time.`);
    const rows = await filesRepository(app.readDb).uploadFacts(
      ids,
      user.role === 'ADMIN' ? null : user.id,
    );
    ctx.body = {
      files: rows.map((r) => ({
        id: r.id,
        uploaded_at: isoWithOffset(r.created_at),
        description: r.description,
      })),
    };
  });

  router.get('/api/files/:id/summary.csv', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    await sendSummary(ctx, [row], reportFileName(row).replace(/-report\.csv$/, '-summary.csv'));
  });

  router.get('/api/files/:id', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    answer(
      ctx,
      'GET /api/files/:id',
      fileDetail(row, { includeResearch: await ownerIsResearcher(row) }),
    );
  });

  router.get('/api/files/:id/media', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    if (!hasMedia(row))
      throw new NotFound('The video was deleted after processing; its report is kept.');
    await sendFile(
      ctx,
      storedPath(dirs.media, row.stored_name),
      CONTENT_TYPES[row.format] ?? 'application/octet-stream',
    );
  });

  router.get('/api/files/:id/report.csv', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    if (row.status !== 'PROCESSED') {
      throw new Conflict(
        row.status === 'FAILED'
          ? `This file could not be analysed, so it has no report: ${row.status_reason ?? 'unknown reason'}`
          : 'The report is not ready yet: the file is still being processed. Try again shortly.',
      );
    }
    const csv = frameCsv(
      {
        frames: rowFrames(row),
        traffic: rowSummary(row)?.traffic ?? null,
        calibration: rowSummary(row)?.calibration ?? null,
      },
      { includeResearch: await ownerIsResearcher(row) },
    );
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${reportFileName(row)}"`);
    ctx.body = csv;
  });

  router.get('/api/files/:id/preview.jpg', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    const preview = previewFor(row, await ownerIsResearcher(row));
    if (!preview) throw new NotFound('This file has no preview.');
    const dir = preview.honeybeesOnly ? dirs.honeybeePreviews : dirs.previews;
    await sendFile(ctx, storedPath(dir, preview.name), 'image/jpeg');
  });

  // The frame with the highest-scored hornet (what hornet alerts link to): research data.
  router.get('/api/files/:id/hornet.jpg', app.requireUser, async (ctx) => {
    const row = await loadVisibleFile(app.db, currentUser(ctx), ctx.params.id);
    if (!row.preview_name || rowSummary(row)?.hornetPreviewTimeS === undefined)
      throw new NotFound('This file has no hornet frame.');
    if (!(await ownerIsResearcher(row))) throw new NotFound('This file has no hornet frame.');
    await sendFile(ctx, storedPath(dirs.hornetPreviews, row.preview_name), 'image/jpeg');
  });

  return router;
}

function reportFileName(row: FileRow): string {
  const stem = row.original_name
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, 80);
  return `${stem || 'file'}-report.csv`;
}

/** Streams a stored file, honouring one `Range: bytes=a-b` (video seeking in the browser). */
async function sendFile(ctx: Context, file: string, contentType: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new NotFound('The media file is no longer available.');
  const size = info.size;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', 'private, max-age=0');
  ctx.type = contentType;
  const range = /^bytes=(\d*)-(\d*)$/.exec(ctx.get('range'));
  if (range && (range[1] || range[2]) && size > 0) {
    let start = range[1] ? Number(range[1]) : size - Number(range[2]);
    let end = range[1] && range[2] ? Number(range[2]) : size - 1;
    start = Math.max(0, start);
    end = Math.min(end, size - 1);
    if (start > end) {
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${size}`);
      return;
    }
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    ctx.length = end - start + 1;
    ctx.body = createReadStream(file, { start, end });
    return;
  }
  ctx.length = size;
  ctx.body = createReadStream(file);
}
