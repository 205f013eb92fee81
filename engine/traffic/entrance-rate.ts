/**
 * Analysing the entrance at a higher rate than the whole frame (issue 56, item 4): the part of
 * the frame a crossing happens in is the entrance and a few bee lengths around it, so between two
 * whole-frame samples only that crop needs looking at. This module is the crop's geometry and
 * the mixing of whole-frame and crop detections. Experiment 016 found it does not pay with the
 * shipped tracker: `analyseFile` runs it only when asked (`entranceFps`), for the benchmarks.
 */
import { Tracker } from '../tracking/tracker.ts';
import type { TrackerOptions } from '../tracking/tracker.ts';
import { HONEYBEE_CLASSES } from '../types.ts';
import type { Detection, Entrance, RawFrame, Track, Traffic, TrafficEvent } from '../types.ts';
import { countTraffic } from './count.ts';

/**
 * The entrance rate experiment 016 tried (`AnalyseOptions.entranceFps`). Off in the product: on
 * the synthetic benchmark's noise feed it paid only with a tracker exit at the entrance that
 * experiment 015 dropped; with the shipped tracker, on the scene with bees sitting in the slit,
 * it lowered the hive camera's crossing precision by 0.10 and its recall by 0.07 at 15 bees.
 */
export const ENTRANCE_FPS = 10;

/**
 * How far the crop reaches past the entrance, in bee lengths: the board the benchmark's bees
 * walk, guard and take off on before going in (`lab/entrance-sim`: up to 3-4 bee lengths), the
 * same reach as `ENTRANCE_NEAR_BEE_LENGTHS`.
 */
export const ENTRANCE_CROP_BEE_LENGTHS = 4;

/** A rectangle in whole-frame pixels (integers). */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The entrance's bounding box padded by `padBeeLengths` bee lengths on every side, clamped to the
 * frame, widened to whole pixels.
 */
export function entranceCrop(
  entrance: Entrance,
  frame: { width: number; height: number },
  beeLengthPx: number,
  padBeeLengths = ENTRANCE_CROP_BEE_LENGTHS,
): PixelRect {
  const { width, height } = frame;
  const xs = entrance.points.map(([x]) => x * width);
  const ys = entrance.points.map(([, y]) => y * height);
  const pad = Math.max(0, padBeeLengths * beeLengthPx);
  // A hair's tolerance, so that 0.55 x 1080 is 594 px, not 595.
  const down = (v: number) => Math.floor(v + 1e-6);
  const up = (v: number) => Math.ceil(v - 1e-6);
  const x0 = Math.max(0, down(Math.min(...xs) - pad));
  const y0 = Math.max(0, down(Math.min(...ys) - pad));
  const x1 = Math.min(width, up(Math.max(...xs) + pad));
  const y1 = Math.min(height, up(Math.max(...ys) + pad));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/**
 * Detections made on the crop (coordinates relative to it) moved into whole-frame pixels.
 */
export function fromCrop(detections: readonly Detection[], crop: PixelRect): Detection[] {
  return detections.map((d) => ({
    ...d,
    box: { ...d.box, x: d.box.x + crop.x, y: d.box.y + crop.y },
  }));
}

/**
 * Detections the crop sees whole: a box that touches an edge of the crop that is not also the
 * frame's is a bee cut in two by the crop, whose box would jump when the next whole frame shows
 * it all; it is left to the whole frames, as is everything outside the crop.
 */
export function withinCrop(
  detections: readonly Detection[],
  crop: PixelRect,
  frame: { width: number; height: number },
  tolerancePx = 1,
): Detection[] {
  const left = crop.x > 0 ? crop.x + tolerancePx : -Infinity;
  const top = crop.y > 0 ? crop.y + tolerancePx : -Infinity;
  const right = crop.x + crop.width < frame.width ? crop.x + crop.width - tolerancePx : Infinity;
  const bottom =
    crop.y + crop.height < frame.height ? crop.y + crop.height - tolerancePx : Infinity;
  return detections.filter(
    ({ box }) =>
      box.x >= left && box.y >= top && box.x + box.width <= right && box.y + box.height <= bottom,
  );
}

/**
 * The rate the entrance runs at beside a `sampleFps` whole-frame rate: the least whole multiple
 * of it that reaches `target`; undefined when that is the sample rate itself (the whole frames
 * come often enough) or more than the source's own `sourceFps` (ffmpeg would repeat frames).
 */
export function entranceFpsFor(
  sampleFps: number,
  sourceFps: number,
  target: number,
): number | undefined {
  const step = Math.ceil(target / sampleFps - 1e-9);
  const fps = step * sampleFps;
  return step > 1 && fps <= sourceFps + 1e-6 ? fps : undefined;
}

/** Whole-frame samples among the entrance-rate ones: every `step`-th, from the first. */
export function entranceStep(sampleFps: number, entranceFps: number): number {
  const step = Math.round(entranceFps / sampleFps);
  if (step < 1 || Math.abs(step * sampleFps - entranceFps) > 1e-9) {
    throw new RangeError(
      `the entrance rate (${entranceFps} fps) is a whole multiple of the sample rate (${sampleFps} fps)`,
    );
  }
  return step;
}

/** Honeybee boxes whose longer side gives the bee length; the first ones suffice for a median. */
const BEE_LENGTH_SAMPLE = 400;

/** What the count needs from the entrance-rate tracking. */
export interface EntranceTracks {
  tracks: Track[];
  /** The rate the traffic tracker ran at. */
  sampleFps: number;
  frames?: { first: number; last: number };
}

/**
 * The traffic tracker at the entrance rate: it gets the whole frame's detections at every
 * `step`-th decoded frame (the sample-rate frames everything else is counted on) and, between
 * them, the detections of a crop around the entrance. The crop's padding is measured in bee
 * lengths: the median longer side of the honeybees seen on whole frames, or, before any, the
 * caller's estimate (the card's learnt size at the decode scale).
 */
export class EntranceRate {
  readonly fps: number;
  readonly step: number;
  private tracker: Tracker;
  private lengths: number[] = [];
  private first: number | undefined;
  private last: number | undefined;

  constructor(
    private readonly entrance: Entrance,
    private readonly source: { width: number; height: number },
    sampleFps: number,
    /** The entrance rate (`entranceFpsFor`). */
    fps: number,
    private readonly trackerOptions: TrackerOptions,
    private readonly fallbackBeeLengthPx: number,
  ) {
    this.fps = fps;
    this.step = entranceStep(sampleFps, fps);
    this.tracker = new Tracker(trackerOptions);
  }

  /** Whether a frame decoded at the entrance rate is a whole-frame sample. */
  isWhole(frame: RawFrame): boolean {
    return frame.index % this.step === 0;
  }

  /** A whole-frame sample as the sample-rate frame it is (index at that rate). */
  asSample(frame: RawFrame): RawFrame {
    return { ...frame, index: frame.index / this.step };
  }

  /** A whole frame's detections (source pixels), `frame` decoded at the entrance rate. */
  whole(frame: RawFrame, detections: readonly Detection[]): void {
    for (const d of detections) {
      if (this.lengths.length >= BEE_LENGTH_SAMPLE) break;
      if (HONEYBEE_CLASSES.includes(d.cls)) this.lengths.push(Math.max(d.box.width, d.box.height));
    }
    this.update(frame.index, detections);
  }

  /**
   * Detects on the crop of `frame` (decoded at the entrance rate, scaled as the whole frames
   * are) with `detect`, which sees the crop as a source of its size, and feeds the tracker the
   * boxes it sees whole, in source pixels.
   */
  async crop(
    frame: RawFrame,
    detect: (crop: RawFrame, sourceWidth: number, sourceHeight: number) => Promise<Detection[]>,
  ): Promise<void> {
    const { cut, rect } = this.cut(frame);
    const found = cut.width > 0 && cut.height > 0 ? await detect(cut, rect.width, rect.height) : [];
    this.update(frame.index, withinCrop(fromCrop(found, rect), rect, this.source));
  }

  /** The crop of `frame`, and where it lies in the source (pixels, maybe fractional). */
  cut(frame: RawFrame): { cut: RawFrame; rect: PixelRect } {
    const sx = frame.width / this.source.width;
    const sy = frame.height / this.source.height;
    const c = entranceCrop(this.entrance, this.source, this.beeLengthPx());
    const x0 = Math.max(0, Math.floor(c.x * sx));
    const y0 = Math.max(0, Math.floor(c.y * sy));
    const x1 = Math.min(frame.width, Math.ceil((c.x + c.width) * sx));
    const y1 = Math.min(frame.height, Math.ceil((c.y + c.height) * sy));
    const width = Math.max(0, x1 - x0);
    const height = Math.max(0, y1 - y0);
    const data = new Uint8Array(width * height * 3);
    for (let row = 0; row < height; row++) {
      const from = ((y0 + row) * frame.width + x0) * 3;
      data.set(frame.data.subarray(from, from + width * 3), row * width * 3);
    }
    return {
      cut: { index: frame.index, timeS: frame.timeS, width, height, data },
      rect: { x: x0 / sx, y: y0 / sy, width: width / sx, height: height / sy },
    };
  }

  /**
   * The passages through `entrance` counted on the entrance-rate tracks, their events told on
   * the sample-rate frames (`onSampleFrames`), with the rate they were counted at.
   */
  count(video: { width: number; height: number; durationS: number }): Traffic {
    const { tracks, sampleFps, frames } = this.finish();
    const counted = countTraffic(tracks, this.entrance, {
      ...video,
      sampleFps,
      ...(frames ? { frames } : {}),
    });
    return { ...counted, events: onSampleFrames(counted.events, this.step), sampleFps };
  }

  /** The tracks so far, for `countTraffic` at the entrance rate. */
  finish(): EntranceTracks {
    const frames =
      this.first === undefined || this.last === undefined
        ? {}
        : { frames: { first: this.first, last: this.last } };
    return { tracks: this.tracker.finish(), sampleFps: this.fps, ...frames };
  }

  /** Starts again (auto-zoom decodes the video again from its start). */
  reset(): void {
    this.tracker = new Tracker(this.trackerOptions);
    this.lengths = [];
    this.first = undefined;
    this.last = undefined;
  }

  private update(index: number, detections: readonly Detection[]): void {
    this.first ??= index;
    this.last = index;
    this.tracker.update(index, detections);
  }

  private beeLengthPx(): number {
    if (this.lengths.length === 0) return this.fallbackBeeLengthPx;
    const sorted = [...this.lengths].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }
}

/**
 * Passages counted at the entrance rate, told on the sample-rate frames everything else is
 * on: an event's frame becomes the first sample-rate frame at or after it (so the per-frame
 * CSV's running totals include it there); its time stays exact.
 */
export function onSampleFrames(events: readonly TrafficEvent[], step: number): TrafficEvent[] {
  return events.map((e) => ({ ...e, frame: Math.ceil(e.frame / step) }));
}

/**
 * A bee's length in source pixels before any is seen: the card's learnt insect size (the square
 * root of a box's area, about 0.75 of a bee's length) at the decode scale; without one, a
 * twentieth of the frame's height.
 */
export function learntBeeLengthPx(
  insectPx: number | undefined,
  inputPxPerSourcePx: number,
  sourceHeight: number,
): number {
  return insectPx ? insectPx / 0.75 / inputPxPerSourcePx : sourceHeight / 20;
}
