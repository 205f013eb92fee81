/**
 * Orchestrates one file: probe, decode sampled frames (at the detector's auto-zoom), detect,
 * track, count. Every side effect comes in through `AnalyseDeps`, so the server, the CLI and the
 * tests decide what runs.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { Detector } from './detection/detector.ts';
import { AnalysisCancelledError } from './errors.ts';
import type { MediaLimits } from './media/limits.ts';
import { probeMedia } from './media/probe.ts';
import { detectPicture } from './detect-picture.ts';
import { calibratedThresholds, calibrationNote } from './calibration/calibration.ts';
import type { Calibration } from './calibration/calibration.ts';
import { readFrameAt, readFrames } from './media/frames.ts';
import { insectSize } from './detection/zoom.ts';
import { frameLook } from './quality/frame-look.ts';
import type { FrameLook } from './quality/frame-look.ts';
import { gradeQuality, qualitySignals } from './quality/grade.ts';
import type { MediaTools } from './media/tools.ts';
import { beeCoverage, countFrame, uniqueCounts } from './reports/counts.ts';
import { previewSize, renderPreview } from './reports/preview.ts';
import { Tracker, trackerOptionsFor } from './tracking/tracker.ts';
import { countTraffic } from './traffic/count.ts';
import { entranceDensity } from './traffic/density.ts';
import { EntranceRate, entranceFpsFor, learntBeeLengthPx } from './traffic/entrance-rate.ts';
import { HONEYBEE_CLASSES } from './types.ts';
import type {
  AnalysisProgress,
  AnalysisResult,
  Detection,
  Entrance,
  FrameResult,
  RawFrame,
} from './types.ts';

export const DEFAULT_SAMPLE_FPS = 5;

/** Frames of video (one second at the default rate) whose honeybees auto-zoom judges together. */
const AUTO_ZOOM_FRAMES = 5;
/** Seconds of video in which auto-zoom may still start the decoding again (`detection/zoom.ts`). */
const AUTO_ZOOM_WITHIN_S = 10;

export interface AnalyseDeps {
  detector: Detector;
  tools: MediaTools;
  limits: MediaLimits;
  /** Clock for `analysedAt`; injectable so reports are reproducible in tests. */
  now?: () => Date;
}

export interface AnalyseOptions {
  /** Analysed frames per second of video (default 5). */
  sampleFps?: number;
  onProgress?: (progress: AnalysisProgress) => void;
  signal?: AbortSignal;
  /** Render an annotated JPEG of the busiest frame into `result.preview`. */
  keepPreviewFrame?: boolean;
  /** Count entrance traffic (videos): the result carries `traffic`. */
  entrance?: Entrance;
  /**
   * With an entrance, track its traffic at this rate (a whole multiple of `sampleFps`, no more
   * than the video's own), the frames between the samples detected on a crop around the entrance
   * (`traffic/entrance-rate.ts`). Off by default: experiment 016 found it does not pay with the
   * shipped tracker; `npm run bench:traffic -- --product` asks again.
   */
  entranceFps?: number;
  /**
   * The location's calibration (issue 58): its zoom replaces auto-zoom's judgement and its
   * thresholds the card's honeybee ones; the result names it.
   */
  calibration?: Calibration;
}

export interface AnalysisOutput extends AnalysisResult {
  /**
   * Annotated JPEG of the frame with the most detections, when asked for: decoded again from the
   * file at preview size (at least 1600 px wide, or the source's width), not the detector's frame.
   */
  preview?: Buffer;
  /** The preview frame's time in the video (seconds); absent for a picture. */
  previewTimeS?: number;
  /**
   * The same frame with honeybee boxes only (no wasps, no hornets), for viewers whose plan does
   * not include those classes; the same buffer as `preview` when the frame shows none.
   */
  honeybeePreview?: Buffer;
  /**
   * The frame with the highest-scored hornet, every class drawn, when previews are asked for and
   * a hornet was detected: what a hornet alert shows, as the busiest frame may have none.
   */
  hornetPreview?: { jpeg: Buffer; timeS: number };
}

export async function analyseFile(
  file: string,
  deps: AnalyseDeps,
  options: AnalyseOptions = {},
): Promise<AnalysisOutput> {
  const started = performance.now();
  const sampleFps = options.sampleFps ?? DEFAULT_SAMPLE_FPS;
  const { detector, tools, limits } = deps;
  throwIfAborted(options.signal);

  // The onnxruntime session is made while ffprobe and then ffmpeg start, not after the first
  // frame arrives: one after the other they were most of a video's first second (engine/README.md,
  // Warm-up). A failure here is left to the first detect, which tries again and reports it.
  const warm = () => void detector.load().catch(() => undefined);
  const media = await probeMedia(file, { tools, limits, onKind: warm });
  const identity = detector.identity;
  const framesTotal =
    media.kind === 'image' ? 1 : Math.max(1, Math.ceil(media.durationS * sampleFps));

  // Honeybees shown on the frames may start tracks at the thresholds they are shown at; a track
  // that moved counts once the median score of its hits reaches its class's track score, if any.
  const calibration = options.calibration;
  const thresholds = calibration
    ? calibratedThresholds(detector.scoreThresholds(), calibration.thresholds)
    : detector.scoreThresholds();
  const laid = calibration ? { thresholds: thresholds.perClass } : {};
  const { trackScore } = detector.card.thresholds;
  const trackerOptions = trackerOptionsFor(sampleFps, thresholds, trackScore);
  let tracker = new Tracker(trackerOptions);
  // Asked for, traffic is tracked at the entrance rate: the frames between the samples are
  // decoded too and detected on a crop around the entrance (experiment 016). A source with fewer
  // frames than that has none between its samples to give.
  const entranceFps = options.entranceFps
    ? entranceFpsFor(sampleFps, media.fps, options.entranceFps)
    : undefined;
  const entranceRate =
    options.entrance && media.kind === 'video' && entranceFps
      ? new EntranceRate(
          options.entrance,
          media,
          sampleFps,
          entranceFps,
          trackerOptionsFor(entranceFps, thresholds, trackScore),
          learntBeeLengthPx(
            detector.card.input.autoZoom?.insectPx,
            detector.inputSizeFor(media.width, media.height, 1).width / media.width,
            media.height,
          ),
        )
      : undefined;
  let frames: FrameResult[] = [];
  /** How each recorded frame looked, for the quality grade. */
  let looks: FrameLook[] = [];
  let decodeMs = 0;
  let inferenceMs = 0;
  let trackingMs = 0;
  let busiest: { frame: RawFrame; detections: Detection[] } | undefined;
  let hornetFrame: { frame: RawFrame; detections: Detection[]; score: number } | undefined;
  let reported = 0;
  const record = (frame: RawFrame, detections: Detection[]): void => {
    frames.push({
      index: frame.index,
      timeS: frame.timeS,
      detections,
      counts: countFrame(detections, identity.classes),
      beeCoveragePct: beeCoverage(detections, media.width, media.height),
    });
    looks.push(frameLook(frame));
    if (options.keepPreviewFrame && (!busiest || detections.length > busiest.detections.length)) {
      busiest = { frame, detections };
    }
    if (options.keepPreviewFrame) {
      const score = Math.max(
        0,
        ...detections.filter((d) => d.cls === 'hornet').map((d) => d.score),
      );
      if (score > (hornetFrame?.score ?? 0)) hornetFrame = { frame, detections, score };
    }
    // After an auto-zoom restart the frames already reported are done again: progress waits
    // for them rather than going backwards.
    if (frames.length <= reported) return;
    reported = frames.length;
    options.onProgress?.({
      file,
      framesDone: frames.length,
      framesTotal: Math.max(framesTotal, frames.length),
      elapsedMs: performance.now() - started,
    });
  };

  // A video's zoom is judged on the honeybees of its first AUTO_ZOOM_FRAMES frames (or more,
  // until there are enough, within AUTO_ZOOM_WITHIN_S seconds); if it is not 1, decoding starts
  // again from the beginning at that zoom.
  let zoom: number | undefined = calibration?.zoom ?? undefined;
  const pooled: Detection[] = [];
  /** The zoom once this video frame's honeybees, with the earlier ones, decide it; else undefined. */
  const judge = (frame: RawFrame, detections: Detection[]): number | undefined => {
    pooled.push(...detections);
    if (frames.length + 1 < AUTO_ZOOM_FRAMES) return undefined;
    const judged = detector.zoomFor(pooled, frame.width, media.width, media.height);
    return judged ?? (frame.timeS >= AUTO_ZOOM_WITHIN_S ? 1 : undefined);
  };
  if (media.kind === 'image') {
    const picture = await detectPicture(file, media, deps, {
      ...laid,
      ...(zoom === undefined ? {} : { zoom }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    decodeMs += picture.decodeMs;
    inferenceMs += picture.inferenceMs;
    record(picture.frame, picture.detections);
    zoom = picture.zoom;
  }
  while (media.kind === 'video') {
    const size = detector.inputSizeFor(media.width, media.height, zoom ?? 1);
    let restart = false;
    let waitStart = performance.now();
    for await (const decoded of readFrames(file, media, {
      tools,
      limits,
      sampleFps: entranceRate?.fps ?? sampleFps,
      ...size,
      ...(options.signal ? { signal: options.signal } : {}),
    })) {
      const t0 = performance.now();
      decodeMs += t0 - waitStart;
      if (entranceRate && !entranceRate.isWhole(decoded)) {
        await entranceRate.crop(decoded, (crop, w, h) => detector.detect(crop, w, h, laid));
        inferenceMs += performance.now() - t0;
        waitStart = performance.now();
        continue;
      }
      const frame = entranceRate ? entranceRate.asSample(decoded) : decoded;
      const detections = await detector.detect(frame, media.width, media.height, laid);
      const t1 = performance.now();
      inferenceMs += t1 - t0;
      if (zoom === undefined) {
        zoom = judge(frame, detections);
        if (zoom !== undefined && zoom !== 1) {
          restart = true;
          break;
        }
      }
      tracker.update(frame.index, detections);
      entranceRate?.whole(decoded, detections);
      trackingMs += performance.now() - t1;
      record(frame, detections);
      waitStart = performance.now();
    }
    if (!restart && zoom === undefined) {
      // A video shorter than AUTO_ZOOM_FRAMES frames is judged on all of them.
      zoom = detector.zoomFor(pooled, size.width, media.width, media.height) ?? 1;
      restart = zoom !== 1;
    }
    if (!restart) break;
    throwIfAborted(options.signal);
    tracker = new Tracker(trackerOptions);
    entranceRate?.reset();
    frames = [];
    looks = [];
    busiest = undefined;
    hornetFrame = undefined;
  }
  throwIfAborted(options.signal);

  const tracks = media.kind === 'video' ? tracker.finish() : [];
  const counts =
    media.kind === 'video'
      ? uniqueCounts(tracks, frames, identity.classes)
      : (frames[0]?.counts ?? countFrame([], identity.classes));
  const beeCoveragePct =
    frames.length === 0 ? 0 : frames.reduce((sum, f) => sum + f.beeCoveragePct, 0) / frames.length;

  const result: AnalysisOutput = {
    file: path.basename(file),
    media,
    counts,
    frames,
    tracks,
    beeCoveragePct,
    model: identity,
    sampleFps: media.kind === 'video' ? sampleFps : 0,
    zoom: zoom ?? 1,
    timing: { decodeMs, inferenceMs, trackingMs, totalMs: performance.now() - started },
    analysedAt: (deps.now?.() ?? new Date()).toISOString(),
    ...(calibration ? { calibration: calibrationNote(calibration) } : {}),
  };
  result.quality = gradeQuality(
    qualitySignals({
      kind: media.kind,
      frames,
      looks,
      tracks,
      sampleFps,
      zoom: result.zoom,
      sizeRatio: usualSizeRatio(detector, frames, media.width, media.height),
      thresholdFor: (cls) => thresholds.perClass[cls] ?? thresholds.score,
    }),
  );
  if (options.entrance && media.kind === 'video') {
    const sampled =
      frames.length > 0 ? { frames: { first: frames[0]!.index, last: frames.at(-1)!.index } } : {};
    result.traffic = {
      ...(entranceRate
        ? entranceRate.count(media)
        : {
            ...countTraffic(tracks, options.entrance, { ...media, sampleFps, ...sampled }),
            sampleFps,
          }),
      density: entranceDensity(frames, options.entrance, media),
    };
  }
  // One more decode per preview frame, at preview size; the detector's small frame stands in
  // should that decode fail (a seek past the last frame), so a preview never fails the analysis.
  const sharp = async (frame: RawFrame): Promise<RawFrame> => {
    try {
      return await readFrameAt(file, media, frame.timeS, {
        tools,
        limits,
        ...previewSize(media.width, media.height),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throwIfAborted(options.signal);
      if (error instanceof RangeError) throw error;
      return frame;
    }
  };
  const timeOf = (frame: RawFrame) => (media.kind === 'video' ? { timeS: frame.timeS } : {});
  if (busiest) {
    const { frame, detections } = busiest;
    const busiestSharp = await sharp(frame);
    result.preview = await renderPreview(
      busiestSharp,
      detections,
      media.width,
      media.height,
      timeOf(frame),
    );
    if (media.kind === 'video') result.previewTimeS = frame.timeS;
    const honeybees = detections.filter((d) => HONEYBEE_CLASSES.includes(d.cls));
    result.honeybeePreview =
      honeybees.length === detections.length
        ? result.preview
        : await renderPreview(busiestSharp, honeybees, media.width, media.height, timeOf(frame));
  }
  if (hornetFrame) {
    const { frame, detections } = hornetFrame;
    result.hornetPreview = {
      jpeg:
        frame === busiest?.frame && result.preview
          ? result.preview
          : await renderPreview(
              await sharp(frame),
              detections,
              media.width,
              media.height,
              timeOf(frame),
            ),
      timeS: frame.timeS,
    };
  }
  return result;
}

/**
 * The honeybees' size (the card's auto-zoom quantile) at the detector's usual input scale, over
 * the size it learnt: what auto-zoom judged, over every analysed frame; null when the card has
 * no learnt size or too few honeybees were shown.
 */
function usualSizeRatio(
  detector: Detector,
  frames: readonly FrameResult[],
  width: number,
  height: number,
): number | null {
  const card = detector.card.input.autoZoom;
  if (!card) return null;
  const { score, perClass } = detector.scoreThresholds();
  const scale = detector.inputSizeFor(width, height, 1).width / width;
  const size = insectSize(
    frames.flatMap((f) => f.detections),
    scale,
    card,
    (cls) => perClass[cls] ?? score,
  );
  return size === undefined ? null : size / card.insectPx;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AnalysisCancelledError('The analysis was cancelled.');
}
