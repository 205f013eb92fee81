/**
 * The still a correction is made on: a photo itself, or one sampled frame of a video decoded
 * again by ffmpeg at the source size, saved as a JPEG under DATA_DIR/stills, with its size beside
 * it (`<name>.json`). The model's detections on it are the ones counted when the file was
 * analysed (`files.detections_json`), so the editor opens with exactly what the report counted
 * and a re-count's boxes replace them; a file analysed before they were kept has its frame
 * detected again by the server's engine (the photo path), once, into the same `.json`. A still
 * is named after the file's stored name and the frame index, so every process finds the same one.
 *
 * Making one costs about 0.8 s of CPU, so (issue 54) concurrent requests for one still share a
 * single piece of work, each still made is counted against the user who asked for it
 * (`stills:user:<id>`, STILLS_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS, 429 past it), and a
 * deleted file's stills leave the disk with it (`removeStillsOf`).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Detection, ProductClass } from '../../engine/vocabulary.ts';
import type { AppContext } from '../context.ts';
import { engineFor, loadEngineModule } from '../files/engine.ts';
import { RateLimited } from '../errors.ts';
import { waitText } from '../auth/rate-limit.ts';
import { generatedName, mediaDirs, removeQuietly, storedPath } from '../files/storage.ts';
import type { FileRow } from '../files/file-row.ts';
import { rowFrameDetections, rowFrames, rowSummary } from '../files/file-row.ts';

const run = promisify(execFile);

export interface StillInfo {
  /** Stored name of the JPEG under stillsDir. */
  name: string;
  width: number;
  height: number;
  /** The model's detections on the still, in its pixels. */
  detections: Array<{ cls: ProductClass; score: number; box: Detection['box'] }>;
  model: { name: string; version: string; classes: ProductClass[] } | null;
}

export const stillsDir = (dataDir: string): string => path.join(dataDir, 'stills');

/** The still's generated-looking name for one frame of one file (32 hex digits + .jpg). */
export function stillName(row: Pick<FileRow, 'stored_name'>, index: number): string {
  return `${createHash('sha256').update(`${row.stored_name}#${index}`).digest('hex').slice(0, 32)}.jpg`;
}

const metaPath = (dir: string, name: string) => storedPath(dir, name.replace(/\.jpg$/, '.json'));

/** Stills being made in this process, by path: later requests for one wait on the same work. */
const inFlight = new Map<string, Promise<StillInfo>>();
let made = 0;

/** How many stills this process has made (ffmpeg and detector runs); read by tests. */
export const stillsMade = (): number => made;

/**
 * The still and its detections, made on first use (needs the file's media) and charged to
 * `viewer`; RateLimited when the viewer has had too many made in the window.
 */
export function stillFor(
  app: AppContext,
  row: FileRow,
  frame: { index: number; timeS: number },
  viewer: { id: number },
): Promise<StillInfo> {
  const dir = stillsDir(app.config.dataDir);
  const name = stillName(row, frame.index);
  const key = storedPath(dir, name);
  const pending = inFlight.get(key);
  if (pending) return pending;
  const work = (async () => {
    const known = await readMeta(dir, name);
    if (known) return known;
    await chargeStill(app, viewer.id);
    made += 1;
    return makeStill(app, row, frame, dir, name);
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work.then((info) => withCounted(row, frame.index, info));
}

/** The still with the detections its frame was counted with, where the file kept them. */
function withCounted(row: FileRow, index: number, info: StillInfo): StillInfo {
  const counted = rowFrameDetections(row, index);
  const summary = rowSummary(row);
  if (!counted) return info;
  return { ...info, detections: counted, model: summary?.model ?? info.model };
}

async function chargeStill(app: AppContext, userId: number): Promise<void> {
  const max = app.config.stillsRateLimitMax;
  const hit = await app.limiter.hit([{ key: `stills:user:${userId}`, max }]);
  if (hit.allowed) return;
  throw new RateLimited(
    `You have opened ${max} new frames in the last ${waitText(app.config.rateLimitWindowSeconds)}. ` +
      `Please wait ${waitText(hit.retryAfterSeconds)} and try again; frames opened already open at once.`,
    hit.retryAfterSeconds,
  );
}

async function makeStill(
  app: AppContext,
  row: FileRow,
  frame: { index: number; timeS: number },
  dir: string,
  name: string,
): Promise<StillInfo> {
  await mkdir(dir, { recursive: true });
  const media = storedPath(mediaDirs(app.config.dataDir).media, row.stored_name);
  const tmp = path.join(dir, `${generatedName()}.jpg`);
  try {
    const { resolveMediaTools } = await loadEngineModule();
    const seek = row.kind === 'video' ? ['-ss', frame.timeS.toFixed(3)] : [];
    await run(resolveMediaTools().ffmpeg, [
      '-v',
      'error',
      '-y',
      ...seek,
      '-i',
      media,
      '-frames:v',
      '1',
      '-q:v',
      '2',
      tmp,
    ]);
    const info = await describeStill(app, row, frame.index, tmp, name);
    await rename(tmp, storedPath(dir, name));
    const metaTmp = path.join(dir, `${generatedName()}.json`);
    await writeFile(metaTmp, JSON.stringify(info));
    await rename(metaTmp, metaPath(dir, name));
    return info;
  } finally {
    await removeQuietly(tmp);
  }
}

/** The still's size, and its detections: the counted ones, or (files analysed before) new ones. */
async function describeStill(
  app: AppContext,
  row: FileRow,
  index: number,
  file: string,
  name: string,
): Promise<StillInfo> {
  const summary = rowSummary(row);
  const counted = rowFrameDetections(row, index);
  if (counted && summary) {
    return {
      name,
      width: summary.width,
      height: summary.height,
      detections: counted,
      model: summary.model,
    };
  }
  const result = await (await engineFor(app)).analyse(file);
  const detected = result.frames[0]?.detections ?? [];
  return {
    name,
    width: result.media.width,
    height: result.media.height,
    detections: detected.map((d) => ({ cls: d.cls, score: d.score, box: { ...d.box } })),
    model: result.model,
  };
}

/** The still's detections if it was made already (media may be gone since). */
export async function readMeta(dir: string, name: string): Promise<StillInfo | null> {
  try {
    return JSON.parse(await readFile(metaPath(dir, name), 'utf8')) as StillInfo;
  } catch {
    return null;
  }
}

export async function removeStill(dataDir: string, name: string): Promise<void> {
  const dir = stillsDir(dataDir);
  await removeQuietly(storedPath(dir, name));
  await removeQuietly(metaPath(dir, name));
}

/**
 * Removes every still of a deleted file: one per sampled frame (and a photo's), and the stills
 * `alsoNamed` (its corrected frames'). Waits for stills still being made, so none is written
 * after the file is gone.
 */
export async function removeStillsOf(
  dataDir: string,
  row: FileRow,
  alsoNamed: readonly string[] = [],
): Promise<void> {
  const dir = stillsDir(dataDir);
  const indexes = new Set([0, ...rowFrames(row).map((f) => f.index)]);
  const names = new Set([...[...indexes].map((i) => stillName(row, i)), ...alsoNamed]);
  names.delete('');
  for (const name of names) {
    await inFlight.get(storedPath(dir, name))?.catch(() => undefined);
    await removeStill(dataDir, name);
  }
}
