/**
 * Turns an engine AnalysisOutput into the files-table columns (SCHEMA.md). Detections are not
 * stored: the per-frame counts and coverage are what reports and comparisons need.
 */
import { writeFile } from 'node:fs/promises';
import type { AnalysisOutput } from '../../engine/index.ts';
import type { StoredFrame, StoredSummary } from './records.ts';
import { generatedName, removeQuietly, storedPath } from './storage.ts';

export interface ResultColumns {
  counts_json: string;
  summary_json: string;
  frames_json: string;
  preview_name: string | null;
}

export function resultColumns(result: AnalysisOutput, previewName: string | null): ResultColumns {
  const frames: StoredFrame[] = result.frames.map((f) => ({
    index: f.index,
    timeS: f.timeS,
    counts: f.counts,
    beeCoveragePct: f.beeCoveragePct,
  }));
  const summary: StoredSummary = {
    durationS: result.media.durationS,
    width: result.media.width,
    height: result.media.height,
    framesAnalysed: result.frames.length,
    sampleFps: result.sampleFps,
    beeCoveragePct: result.beeCoveragePct,
    model: {
      name: result.model.name,
      version: result.model.version,
      classes: result.model.classes,
    },
    timing: result.timing,
    analysedAt: result.analysedAt,
  };
  return {
    counts_json: JSON.stringify(result.counts),
    summary_json: JSON.stringify(summary),
    frames_json: JSON.stringify(frames),
    preview_name: previewName,
  };
}

/** Writes the preview JPEG (if the engine made one); returns its stored name and path. */
export async function savePreview(
  previewsDir: string,
  preview: Buffer | undefined,
): Promise<{ name: string; path: string } | null> {
  if (!preview) return null;
  const name = `${generatedName()}.jpg`;
  const file = storedPath(previewsDir, name);
  try {
    await writeFile(file, preview);
  } catch (err) {
    await removeQuietly(file);
    throw err;
  }
  return { name, path: file };
}
