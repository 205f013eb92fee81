/**
 * The still a correction is made on: a photo itself, or one sampled frame of a video decoded
 * again by ffmpeg at the source size, saved as a JPEG under DATA_DIR/stills, with the model's
 * detections on that still beside it (`<name>.json`), computed once by the server's engine
 * (the photo path: detections are not stored with a file's results, so the frame is detected
 * again). A still is named after the file's stored name and the frame index, so every process
 * finds the same one.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Detection, ProductClass } from '../../engine/vocabulary.ts';
import type { AppContext } from '../context.ts';
import { engineFor, loadEngineModule } from '../files/engine.ts';
import { generatedName, mediaDirs, removeQuietly, storedPath } from '../files/storage.ts';
import type { FileRow } from '../files/records.ts';

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

/** The still and its detections, made on first use (needs the file's media). */
export async function stillFor(
  app: AppContext,
  row: FileRow,
  frame: { index: number; timeS: number },
): Promise<StillInfo> {
  const dir = stillsDir(app.config.dataDir);
  const name = stillName(row, frame.index);
  const known = await readMeta(dir, name);
  if (known) return known;
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
    const result = await (await engineFor(app)).analyse(tmp);
    const detected = result.frames[0]?.detections ?? [];
    const info: StillInfo = {
      name,
      width: result.media.width,
      height: result.media.height,
      detections: detected.map((d) => ({ cls: d.cls, score: d.score, box: { ...d.box } })),
      model: result.model,
    };
    await rename(tmp, storedPath(dir, name));
    const metaTmp = path.join(dir, `${generatedName()}.json`);
    await writeFile(metaTmp, JSON.stringify(info));
    await rename(metaTmp, metaPath(dir, name));
    return info;
  } finally {
    await removeQuietly(tmp);
  }
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
