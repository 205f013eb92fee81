/**
 * `ingestFile`: what happens to an upload once its bytes are on disk (spec 7, decisions.md 2),
 * with no knowledge of HTTP. The content is checked by the engine's probe (magic bytes +
 * ffprobe) and the plan's video length, the file moves to media/, then pictures are analysed at
 * once (PROCESSED) and videos are queued (QUEUED + a job). The quota is checked again, the day's
 * upload counted and the row written in one transaction. Every rejection removes what was
 * written. The Koa/multer side is upload.ts; `ingestStore` binds the database side.
 */
import path from 'node:path';
import type { DbOrTx } from '../db.ts';
import { inTransaction } from '../db.ts';
import type { Calibration } from '../../engine/vocabulary.ts';
import { calibrationRepository } from '../calibration/calibration-repository.ts';
import { PayloadTooLarge } from '../errors.ts';
import { cleanText, clip } from '../text.ts';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { enqueueJob } from '../queue/jobs-repository.ts';
import type { FileEngine } from './engine.ts';
import { videoTooLongMessage } from './plans.ts';
import type { UploadQuota } from './quotas.ts';
import { countUpload, enforceQuota } from './quotas.ts';
import type { FileRow } from './file-row.ts';
import type { FilesRepository } from './files-repository.ts';
import { filesRepository } from './files-repository.ts';
import { resultColumns, savePreview } from './results.ts';
import type { MediaDirs } from './storage.ts';
import { extensionFor, generatedName, moveFile, removeQuietly, storedPath } from './storage.ts';

/** The uploaded bytes, already streamed to disk (incoming/). */
export interface ReceivedFile {
  path: string;
  originalName: string;
  sizeBytes: number;
}

export interface IngestRequest {
  userId: number;
  file: ReceivedFile;
  description: string;
  location: string;
  /** The uploader's plan: its video length limit (null: none). */
  maxVideoSeconds: number | null;
}

/** The writes of one upload that must commit together. */
export interface IngestUnit {
  /** Throws the quota's error when `sizeBytes` more would exceed the user's allowance. */
  withinQuota(sizeBytes: number): Promise<void>;
  /** Counts one more upload today. */
  countUpload(now: Date): Promise<void>;
  files: Pick<FilesRepository, 'insert'>;
  /** Queues the analysis of a video row. */
  enqueue(fileId: number, now: Date): Promise<void>;
}

export interface IngestStore extends Omit<IngestUnit, 'files'> {
  files: Pick<FilesRepository, 'find'>;
  /** The uploader's applied calibration of the location (issue 58), or null. */
  calibration(location: string): Promise<Calibration | null>;
  transaction<T>(work: (unit: IngestUnit) => Promise<T>): Promise<T>;
}

export interface IngestDeps {
  store: IngestStore;
  dirs: MediaDirs;
  clock: Clock;
  engine: () => Promise<Pick<FileEngine, 'probe' | 'analyse'>>;
}

export async function ingestFile(deps: IngestDeps, request: IngestRequest): Promise<FileRow> {
  const { store, dirs, clock } = deps;
  const { file } = request;
  let mediaPath: string | null = null;
  let previewPaths: string[] = [];
  try {
    await store.withinQuota(file.sizeBytes);
    const engine = await deps.engine();
    const info = await engine.probe(file.path);
    // Checked on ffprobe's duration before anything is stored or queued.
    if (
      info.kind === 'video' &&
      request.maxVideoSeconds !== null &&
      info.durationS > request.maxVideoSeconds
    ) {
      throw new PayloadTooLarge(videoTooLongMessage(request.maxVideoSeconds, info.durationS));
    }
    const storedName = `${generatedName()}.${extensionFor(info.format)}`;
    mediaPath = storedPath(dirs.media, storedName);
    await moveFile(file.path, mediaPath);

    const now = clock.now().toISOString();
    const base = {
      user_id: request.userId,
      original_name: uploadName(file.originalName) || 'upload',
      stored_name: storedName,
      kind: info.kind,
      format: info.format,
      size_bytes: file.sizeBytes,
      description: request.description,
      location: request.location,
      status_time: now,
      created_at: now,
    };

    let id: number;
    if (info.kind === 'image') {
      // Pictures are analysed in the request: the answer carries the processed file.
      // The owner's calibration of this location applies here as in the worker (issue 58).
      const calibration = await store.calibration(request.location);
      const result = await engine.analyse(mediaPath, {
        keepPreviewFrame: true,
        ...(calibration ? { calibration } : {}),
      });
      const preview = await savePreview(dirs, result);
      previewPaths = preview?.paths ?? [];
      id = await store.transaction(async (unit) => {
        await unit.withinQuota(file.sizeBytes);
        await unit.countUpload(clock.now());
        return unit.files.insert({
          ...base,
          ...resultColumns(result, preview?.name ?? null),
          status: 'PROCESSED',
          processed_at: clock.now().toISOString(),
        });
      });
    } else {
      id = await store.transaction(async (unit) => {
        await unit.withinQuota(file.sizeBytes);
        await unit.countUpload(clock.now());
        const fileId = await unit.files.insert({ ...base, status: 'QUEUED' });
        await unit.enqueue(fileId, clock.now());
        return fileId;
      });
    }
    const row = await store.files.find(id);
    if (!row) throw new Error(`file ${id} vanished after its upload`);
    return row;
  } catch (err) {
    await Promise.all([
      removeQuietly(file.path),
      removeQuietly(mediaPath),
      ...previewPaths.map((p) => removeQuietly(p)),
    ]);
    throw err;
  }
}

/**
 * The name an upload is shown under: its last path segment (a browser or a crafted request may
 * send `..\\..\\evil.png` or `/etc/x`), cleaned by the text rule, at most 255 characters; empty
 * when nothing visible is left (upload.ts refuses that).
 */
export function uploadName(raw: string): string {
  return clip(cleanText(path.basename(raw.replace(/\\/g, '/'))), 255).trim();
}

/** The database side of `ingestFile` for one user: their quota, plan priority and the queue. */
export function ingestStore(
  app: Pick<AppContext, 'db' | 'clock' | 'config'>,
  upload: { userId: number; quota: UploadQuota; priority: number },
): IngestStore {
  const unit = (db: DbOrTx): IngestUnit => ({
    withinQuota: (sizeBytes) =>
      enforceQuota(db, {
        userId: upload.userId,
        quota: upload.quota,
        sizeBytes,
        clock: app.clock,
        retentionHours: app.config.mediaRetentionHours,
      }),
    countUpload: (now) => countUpload(db, upload.userId, now),
    files: filesRepository(db),
    enqueue: (fileId, now) =>
      enqueueJob(db, {
        fileId,
        priority: upload.priority,
        maxAttempts: app.config.jobMaxAttempts,
        now,
      }),
  });
  return {
    ...unit(app.db),
    files: filesRepository(app.db),
    calibration: (location) => calibrationRepository(app.db).active(upload.userId, location),
    transaction: (work) => inTransaction(app.db, (trx) => work(unit(trx))),
  };
}
