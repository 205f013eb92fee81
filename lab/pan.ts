/**
 * Unique insects on moving footage with labels: a labelled picture filmed by a window panning
 * across it at a steady speed. Every labelled insect drifts through the window, enters and
 * leaves at its edges and is fully seen for a while, so the clip's unique insects should be the
 * picture's labels. The scene is still in the picture's own pixels: each track, moved back by
 * the window's offset at each hit, sits on one label, which tells a doubled track, a track on no
 * label and an insect typed wrong apart. Used by `training/pan_clips.ts` and the accuracy test.
 */
import { CorruptMediaError } from '../engine/errors.ts';
import type { MediaLimits } from '../engine/media/limits.ts';
import { runTool, stderrTail } from '../engine/media/run-tool.ts';
import type { MediaTools } from '../engine/media/tools.ts';
import type { Box, ClassCounts, Track } from '../engine/types.ts';
import { iou } from '../engine/detection/nms.ts';

export const PAN_WINDOW = { width: 1920, height: 1080 };
/** The window's default speed, in the picture's pixels per second. */
export const PAN_SPEED = 240;
/** The window's frame rate; sampling at the engine's default 5 fps takes every fifth frame. */
export const PAN_CLIP_FPS = 25;
/** A track sits on a label when their boxes, in the picture's pixels, overlap this much. */
export const PAN_MATCH_IOU = 0.3;

export const PAN_TYPES = ['bee', 'pollen', 'drone'] as const;
export type PanType = (typeof PAN_TYPES)[number];

export interface PanSettings {
  /** Window speed, in the picture's pixels per second (default `PAN_SPEED`). */
  speed?: number;
  window?: { width: number; height: number };
}

/** The window's left edge, in the picture's pixels, at `timeS` into the clip. */
export function panOffset(timeS: number, pictureWidth: number, settings: PanSettings = {}): number {
  const { speed = PAN_SPEED, window = PAN_WINDOW } = settings;
  return Math.max(0, Math.min(speed * timeS, pictureWidth - window.width));
}

/**
 * `picture` (`pictureWidth` px wide, as tall as the window) filmed by the window panning from
 * its left edge to its right, as an H.264 MP4 at `out`.
 */
export async function encodePanClip(
  picture: string,
  pictureWidth: number,
  out: string,
  deps: { tools: MediaTools; limits: MediaLimits },
  settings: PanSettings = {},
): Promise<void> {
  const { speed = PAN_SPEED, window = PAN_WINDOW } = settings;
  const travel = pictureWidth - window.width;
  if (!(travel > 0 && speed > 0)) {
    throw new RangeError(`A ${pictureWidth} px picture leaves a ${window.width} px window no room`);
  }
  // The picture is decoded once and its frame repeated (`-loop 1` on the input would decode it
  // again for every frame); `setpts=N` keeps each frame's time, and so the window's offset,
  // exactly that of the input's 1/fps time base, frame for frame the same clip.
  const run = await runTool(deps.tools.ffmpeg, [
    '-v', 'error', '-nostdin', '-framerate', String(PAN_CLIP_FPS), '-i', picture,
    '-vf', `loop=loop=-1:size=1,setpts=N,crop=${window.width}:${window.height}:'min(${speed}*t,${travel})':0`,
    '-t', String(travel / speed), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p', '-y', out,
  ], { timeoutMs: deps.limits.timeoutMs, maxStdoutBytes: 64 * 1024 }); // prettier-ignore
  if (run.code !== 0) {
    throw new CorruptMediaError('The picture could not be encoded into a panning clip.', {
      cause: new Error(stderrTail(run.stderr)),
    });
  }
}

export interface PanLabel {
  cls: PanType;
  /** In the picture's pixels. */
  box: Box;
}

/** What a clip's tracks made of its labels. */
export interface PanOutcome {
  labelled: Record<PanType, number>;
  /** The analysis's unique counts. */
  counted: Record<PanType, number>;
  /** Labels of each type by the type of the first track on them ('missed': none). */
  typed: Record<PanType, Record<PanType | 'missed', number>>;
  /** Tracks on a label another track is on already. */
  doubled: number;
  /**
   * Of those, the ones that share no sampled frame with the first track on their label: a track
   * broken and started again. The rest ran beside it: two boxes on one insect.
   */
  doubledAfter: number;
  /** Tracks on no label. */
  onNothing: number;
  /**
   * Per type, its counted tracks with no label of their own: second tracks on a label, and
   * tracks on no label. With the labels' first tracks typed as it, they make up its count.
   */
  extra: Record<PanType, { doubled: number; onNothing: number }>;
}

const byType = <T>(make: () => T) =>
  Object.fromEntries(PAN_TYPES.map((t) => [t, make()])) as Record<PanType, T>;
const emptyOutcome = (): PanOutcome => ({
  labelled: byType(() => 0),
  counted: byType(() => 0),
  typed: byType(() => ({ bee: 0, pollen: 0, drone: 0, missed: 0 })),
  doubled: 0,
  doubledAfter: 0,
  onNothing: 0,
  extra: byType(() => ({ doubled: 0, onNothing: 0 })),
});
const isPanType = (cls: string): cls is PanType => (PAN_TYPES as readonly string[]).includes(cls);

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Whether two tracks have a hit on a common sampled frame. */
function sharesFrame(a: Track, b: Track): boolean {
  const frames = new Set(b.boxes.map((hit) => hit.frame));
  return a.boxes.some((hit) => frames.has(hit.frame));
}

/** A track's box in the picture's pixels: the median of its hits, each moved back by the window. */
export function pictureBox(track: Track, offsetAt: (frame: number) => number): Box {
  const boxes = track.boxes.map(({ frame, box }) => ({ ...box, x: box.x + offsetAt(frame) }));
  const w = median(boxes.map((b) => b.width));
  const h = median(boxes.map((b) => b.height));
  const cx = median(boxes.map((b) => b.x + b.width / 2));
  const cy = median(boxes.map((b) => b.y + b.height / 2));
  return { x: cx - w / 2, y: cy - h / 2, width: w, height: h };
}

/**
 * Scores a clip's tracks against its picture's labels: each track goes to the label it overlaps
 * most (at least `PAN_MATCH_IOU`), and the first track on a label (the longest) types it.
 * `offsetAt` gives the window's offset at a sampled frame's index.
 */
export function scorePanTracks(
  tracks: readonly Track[],
  counts: Partial<ClassCounts>,
  labels: readonly PanLabel[],
  offsetAt: (frame: number) => number,
): PanOutcome {
  const outcome = emptyOutcome();
  const first = new Map<number, Track>();
  for (const track of [...tracks].sort((a, b) => b.hits - a.hits)) {
    const box = pictureBox(track, offsetAt);
    let best = -1;
    let bestIou = PAN_MATCH_IOU;
    labels.forEach((label, j) => {
      const overlap = iou(box, label.box);
      if (overlap >= bestIou) [best, bestIou] = [j, overlap];
    });
    const taken = first.get(best);
    if (best >= 0 && !taken) {
      first.set(best, track);
      continue;
    }
    const extra = isPanType(track.cls) ? outcome.extra[track.cls] : undefined;
    if (!taken) {
      outcome.onNothing++;
      if (extra) extra.onNothing++;
      continue;
    }
    outcome.doubled++;
    if (extra) extra.doubled++;
    if (!sharesFrame(track, taken)) outcome.doubledAfter++;
  }
  labels.forEach((label, j) => {
    outcome.labelled[label.cls]++;
    const cls = first.get(j)?.cls;
    outcome.typed[label.cls][cls && isPanType(cls) ? cls : 'missed']++;
  });
  for (const t of PAN_TYPES) outcome.counted[t] = counts[t] ?? 0;
  return outcome;
}

/** The clips' outcomes added up. */
export interface PanSummary extends PanOutcome {
  clips: number;
  /** Per clip, honeybees counted against labelled: mean absolute and mean signed error, %. */
  honeybeeErrorPct: number;
  honeybeeBiasPct: number;
}

export function summarisePan(outcomes: readonly PanOutcome[]): PanSummary {
  const sum: PanSummary = {
    ...emptyOutcome(),
    clips: outcomes.length,
    honeybeeErrorPct: 0,
    honeybeeBiasPct: 0,
  };
  const relative: number[] = [];
  for (const o of outcomes) {
    for (const t of PAN_TYPES) {
      sum.labelled[t] += o.labelled[t];
      sum.counted[t] += o.counted[t];
      for (const k of [...PAN_TYPES, 'missed'] as const) sum.typed[t][k] += o.typed[t][k];
    }
    sum.doubled += o.doubled;
    sum.doubledAfter += o.doubledAfter;
    sum.onNothing += o.onNothing;
    for (const t of PAN_TYPES) {
      sum.extra[t].doubled += o.extra[t].doubled;
      sum.extra[t].onNothing += o.extra[t].onNothing;
    }
    const labelled = PAN_TYPES.reduce((s, t) => s + o.labelled[t], 0);
    const counted = PAN_TYPES.reduce((s, t) => s + o.counted[t], 0);
    if (labelled > 0) relative.push((counted - labelled) / labelled);
  }
  const mean = (xs: number[]) =>
    xs.length ? (100 * xs.reduce((a, b) => a + b, 0)) / xs.length : 0;
  sum.honeybeeErrorPct = mean(relative.map(Math.abs));
  sum.honeybeeBiasPct = mean(relative);
  return sum;
}

/** A picture's labelled honeybees (normalised boxes) in its pixels, as `scorePanTracks` takes them. */
export function panLabels(
  labels: readonly { cls: string; box: Box }[],
  picture: { width: number; height: number },
): PanLabel[] {
  return labels.flatMap(({ cls, box }) =>
    isPanType(cls)
      ? [
          {
            cls,
            box: {
              x: box.x * picture.width,
              y: box.y * picture.height,
              width: box.width * picture.width,
              height: box.height * picture.height,
            },
          },
        ]
      : [],
  );
}

/** The window's offset at each sampled frame of an analysis of a pan clip, by frame index. */
export function panOffsets(
  result: { frames: readonly { index: number; timeS: number }[] },
  pictureWidth: number,
  settings: PanSettings = {},
): (frame: number) => number {
  const times = new Map(result.frames.map((f) => [f.index, f.timeS]));
  return (frame) => {
    const timeS = times.get(frame);
    if (timeS === undefined) throw new RangeError(`No sampled frame ${frame}`);
    return panOffset(timeS, pictureWidth, settings);
  };
}
