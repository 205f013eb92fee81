/**
 * Files for a test. `createFile` writes a files row straight into the test server's database
 * (knex, no server modules) with known results, processed unless told otherwise, and its media
 * when given; `uploadFile` sends one through POST /api/upload_docs/ as a user would and, on
 * request, waits until the server has analysed it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ClassCounts } from '../../../engine/vocabulary.ts';
import type { TestClient, TestResponse } from '../http-client.ts';
import type { TestServer } from '../server.ts';
import { waitFor } from '../wait.ts';

export type FileStatus = 'UPLOADED' | 'QUEUED' | 'PROCESSING' | 'PROCESSED' | 'FAILED';

/** One analysed frame as the server stores it in files.frames_json. */
export interface StoredFrame {
  index: number;
  timeS: number;
  counts: ClassCounts;
  beeCoveragePct: number;
}

/** Columns of a files row a test may set (the JSON ones as text, or counts/frames as values). */
export interface FileColumns {
  user_id: number;
  original_name: string;
  stored_name: string;
  kind: 'image' | 'video';
  format: string;
  size_bytes: number;
  description: string;
  location: string;
  status: FileStatus;
  status_reason: string | null;
  status_time: string;
  created_at: string;
  processed_at: string | null;
  media_deleted_at: string | null;
  retention_from: string | null;
  summary_json: string | null;
  detections_json: string | null;
  preview_name: string | null;
}

export function counts(partial: Partial<ClassCounts> = {}): ClassCounts {
  return { bee: 0, pollen: 0, drone: 0, wasp: 0, hornet: 0, ...partial };
}

/** Stored frames 0.2 s apart with these bee coverages and the same counts each. */
export function frames(coverages: number[], perFrame: Partial<ClassCounts> = {}): StoredFrame[] {
  return coverages.map((c, i) => ({
    index: i,
    timeS: i * 0.2,
    counts: counts(perFrame),
    beeCoveragePct: c,
  }));
}

/**
 * Inserts a files row of `userId` and returns its id. Defaults: a PROCESSED PNG picture
 * "hive.png" at "Apiary North", no insect, one frame; `media` is written where the server keeps
 * uploads; `counts`/`frames` null store none.
 */
export async function createFile(
  server: TestServer,
  userId: number,
  row: Partial<FileColumns> & {
    counts?: ClassCounts | null;
    frames?: StoredFrame[] | null;
    media?: Buffer;
  } = {},
): Promise<number> {
  const now = new Date().toISOString();
  const { counts: c, frames: f, media, ...rest } = row;
  const kind = rest.kind ?? 'image';
  const format = rest.format ?? (kind === 'image' ? 'png' : 'mp4');
  const storedName = `${crypto.randomBytes(16).toString('hex')}.${format === 'jpeg' ? 'jpg' : format}`;
  if (media) {
    const dir = path.join(server.dataDir, 'media');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, storedName), media);
  }
  const status = rest.status ?? 'PROCESSED';
  const processed = status === 'PROCESSED';
  const [inserted] = await server.app
    .db('files')
    .insert({
      user_id: userId,
      original_name: 'hive.png',
      stored_name: storedName,
      kind,
      format,
      size_bytes: media?.length ?? 1000,
      description: 'test file',
      location: 'Apiary North',
      status,
      status_time: now,
      created_at: now,
      processed_at: processed ? now : null,
      counts_json: c === null ? null : JSON.stringify(c ?? (processed ? counts() : null)),
      frames_json: f === null ? null : JSON.stringify(f ?? (processed ? frames([0]) : [])),
      summary_json: null,
      ...rest,
    })
    .returning<Array<{ id: number } | number>>('id');
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}

export interface Upload {
  /** The file's name as sent (its extension is what the server goes by). */
  name: string;
  data: Uint8Array;
  /** Default "entrance". */
  description?: string;
  /** Default "Apiary North" (a `DEFAULT_LOCATIONS` hive). */
  location?: string;
}

/** POST /api/upload_docs/ with the two required fields and the file, as the console sends it. */
export function uploadFile(client: TestClient, file: Upload): Promise<TestResponse> {
  const form = new FormData();
  form.append('file_description', file.description ?? 'entrance');
  form.append('location', file.location ?? 'Apiary North');
  form.append('file_data', new Blob([new Uint8Array(file.data)]), file.name);
  return client.request('POST', '/api/upload_docs/', { body: form });
}

/**
 * Uploads (201 expected) and waits until the server has analysed the file (PROCESSED or FAILED,
 * read from its row); the server must run a worker for a video. Returns the file's id and status.
 */
export async function createAnalysedFile(
  server: TestServer,
  client: TestClient,
  file: Upload,
  timeoutMs = 120_000,
): Promise<{ id: number; status: FileStatus }> {
  const res = await uploadFile(client, file);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  const id = res.json<{ file: { id: number } }>().file.id;
  const status = await waitFor(
    `${file.name} analysed`,
    async () => {
      const row = await server.app
        .db('files')
        .where('id', id)
        .first<{ status: FileStatus } | undefined>('status');
      return row?.status === 'PROCESSED' || row?.status === 'FAILED' ? row.status : null;
    },
    timeoutMs,
  );
  return { id, status };
}
