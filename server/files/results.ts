/**
 * Turns an engine AnalysisOutput into the files-table columns (SCHEMA.md). Reports and
 * comparisons read the per-frame counts and coverage (`frames_json`); each frame's detections
 * are kept apart (`detections_json`) for the frame editor, which must open with the boxes that
 * were counted, not with a new detection of the frame.
 */
import { writeFile } from 'node:fs/promises';
import type { AnalysisOutput } from '../../engine/index.ts';
import type {
  StoredFrame,
  StoredFrameDetections,
  StoredHornetTrack,
  StoredSummary,
} from './file-row.ts';
import { storedTraffic } from '../locations/traffic.ts';
import type { MediaDirs } from './storage.ts';
import { generatedName, removeQuietly, storedPath } from './storage.ts';

export interface ResultColumns {
  counts_json: string;
  summary_json: string;
  frames_json: string;
  detections_json: string;
  preview_name: string | null;
}

/** Source pixels to 0.1 px and scores to 0.001: a tenth of the JSON, no visible change. */
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

function storedDetections(result: AnalysisOutput): StoredFrameDetections[] {
  return result.frames.map((f) => ({
    index: f.index,
    detections: f.detections.map((d) => ({
      cls: d.cls,
      score: round(d.score, 3),
      box: {
        x: round(d.box.x, 1),
        y: round(d.box.y, 1),
        width: round(d.box.width, 1),
        height: round(d.box.height, 1),
      },
    })),
  }));
}

export function resultColumns(
  result: AnalysisOutput,
  previewName: string | null,
  extra: Pick<StoredSummary, 'entranceProposal'> = {},
): ResultColumns {
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
      ...(result.model.alertScores ? { alertScores: result.model.alertScores } : {}),
    },
    timing: result.timing,
    analysedAt: result.analysedAt,
    ...(result.quality ? { quality: result.quality } : {}),
    honeybeePreview: previewName !== null && result.honeybeePreview !== undefined,
    ...(previewName !== null && result.hornetPreview
      ? { hornetPreviewTimeS: result.hornetPreview.timeS }
      : {}),
    hornetTracks: hornetTracks(result),
    ...(result.traffic ? { traffic: storedTraffic(result.traffic) } : {}),
    ...(result.media.recordedAt ? { recordedAt: result.media.recordedAt } : {}),
    ...(extra.entranceProposal ? { entranceProposal: extra.entranceProposal } : {}),
    ...(result.calibration ? { calibration: result.calibration } : {}),
  };
  return {
    counts_json: JSON.stringify(result.counts),
    summary_json: JSON.stringify(summary),
    frames_json: JSON.stringify(frames),
    detections_json: JSON.stringify(storedDetections(result)),
    preview_name: previewName,
  };
}

/**
 * Each hornet track's hits that a hornet box made, with their scores: tracks carry boxes only,
 * so each hit is found again among its frame's detections (the tracker copies their boxes).
 * Kept so alerts can judge persistence and score after the detections are gone.
 */
function hornetTracks(result: AnalysisOutput): StoredHornetTrack[] {
  const frames = new Map(result.frames.map((f) => [f.index, f]));
  return result.tracks
    .filter((t) => t.cls === 'hornet')
    .map((t) => ({
      hits: t.boxes.flatMap(({ frame, box }) => {
        const f = frames.get(frame);
        const d = f?.detections.find(
          (d) =>
            d.cls === 'hornet' &&
            d.box.x === box.x &&
            d.box.y === box.y &&
            d.box.width === box.width &&
            d.box.height === box.height,
        );
        return f && d ? [{ timeS: f.timeS, score: d.score }] : [];
      }),
    }));
}

/**
 * Writes the preview JPEG (if the engine made one), its honeybee-only copy and the hornet frame
 * under the same name in their folders; returns the stored name and the paths written. Two stored files
 * rather than rendering per request: a video's frames are erased after 24 hours, and a plan can
 * change after the analysis, so both views must exist from the start.
 */
export async function savePreview(
  dirs: Pick<MediaDirs, 'previews' | 'honeybeePreviews' | 'hornetPreviews'>,
  result: Pick<AnalysisOutput, 'preview' | 'honeybeePreview' | 'hornetPreview'>,
): Promise<{ name: string; paths: string[] } | null> {
  if (!result.preview) return null;
  const name = `${generatedName()}.jpg`;
  const writes: Array<[string, Buffer]> = [[storedPath(dirs.previews, name), result.preview]];
  if (result.honeybeePreview)
    writes.push([storedPath(dirs.honeybeePreviews, name), result.honeybeePreview]);
  if (result.hornetPreview)
    writes.push([storedPath(dirs.hornetPreviews, name), result.hornetPreview.jpeg]);
  const paths = writes.map(([file]) => file);
  try {
    for (const [file, jpeg] of writes) await writeFile(file, jpeg);
  } catch (err) {
    await Promise.all(paths.map((p) => removeQuietly(p)));
    throw err;
  }
  return { name, paths };
}
