/**
 * What analyze and watch write for each file: `<name>.csv` (every column, research ones
 * included), `<name>.preview.jpg`, and `summary.csv` for the batch. Output names are unique
 * within an output folder, so two `a.mp4` from different folders never overwrite each other.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AnalysisOutput, AnalysisResult } from '../../engine/index.ts';
import type { EngineModule } from './engine.ts';

export const SUMMARY_FILE = 'summary.csv';

/** Hands out output names (stems); `summary` is reserved for the batch summary. */
export class OutputNames {
  private readonly taken = new Set<string>(['summary']);

  reserve(stem: string): void {
    this.taken.add(stem.toLowerCase());
  }

  /** `clip` for clip.mp4; `clip-2`, `clip-3`... when that name is already taken. */
  allocate(file: string): string {
    const base = path.basename(file, path.extname(file)).replace(/[^\w.-]+/g, '_') || 'file';
    let stem = base;
    for (let n = 2; this.taken.has(stem.toLowerCase()); n++) stem = `${base}-${n}`;
    this.taken.add(stem.toLowerCase());
    return stem;
  }
}

/** Writes through a temporary file and a rename, so readers never see half a file. */
export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`,
  );
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

export interface FileOutputs {
  csv: string;
  preview?: string;
}

export async function writeFileOutputs(
  mod: EngineModule,
  outDir: string,
  stem: string,
  result: AnalysisOutput,
): Promise<FileOutputs> {
  const csv = path.join(outDir, `${stem}.csv`);
  await writeAtomic(csv, mod.frameCsv(result, { includeResearch: true }));
  if (!result.preview) return { csv };
  const preview = path.join(outDir, `${stem}.preview.jpg`);
  await writeAtomic(preview, result.preview);
  return { csv, preview };
}

/**
 * The result as JSON-able data: counts, frames, tracks, model, timing, quality; never pixels.
 * `counts` are unique insects (tracks in a video, detections in a picture), said so by
 * `countsAre`; `onScreen` gives honeybees per sampled frame (mean and peak), what a chart of
 * frames shows. Boxes (each frame's `detections`, each track's `boxes`) come only when asked
 * for: they are nearly all of the bytes (an 8 s clip's ran to half a megabyte) and most readers
 * want the counts.
 */
export function resultJson(
  mod: Pick<EngineModule, 'honeybeesOnScreen'>,
  result: AnalysisOutput,
  extra: { path: string; outputs: FileOutputs; detections?: boolean },
): Record<string, unknown> {
  const {
    preview: _preview,
    honeybeePreview: _honeybeePreview,
    hornetPreview: _hornetPreview,
    frames,
    tracks,
    ...rest
  } = result;
  const boxes = extra.detections === true;
  return {
    ...rest,
    countsAre: result.media.kind === 'video' ? 'unique insects (tracks)' : 'detections',
    onScreen: mod.honeybeesOnScreen(frames),
    frames: boxes ? frames : frames.map(({ detections: _detections, ...frame }) => frame),
    tracks: boxes ? tracks : tracks.map(({ boxes: _boxes, ...track }) => track),
    path: extra.path,
    outputs: extra.outputs,
  };
}

/** One summary row per result; `display` renames files whose base names clash. */
export async function writeSummary(
  mod: EngineModule,
  outDir: string,
  results: AnalysisResult[],
): Promise<string> {
  const file = path.join(outDir, SUMMARY_FILE);
  await writeAtomic(file, mod.summaryCsv(results));
  return file;
}
