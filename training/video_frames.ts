/**
 * The hive validation frames as the video they were cut from: frames 1181-1230 of one recording,
 * in its order (far enough apart that bees jump between them), encoded into an MP4 at 5 fps (so
 * that sampling at the default 5 fps takes each frame once), then analysed as `analyseFile` analyses a video, fast and thorough: the engine's video frame
 * reader (`readVideoFrames`: ffmpeg's fps filter and scaling; on the thorough path the second,
 * larger stream for the detail classifier) and `detect` on each frame as the analysis names it.
 * Each frame's detections, at eval's low score floor, are scored against its labels, as
 * `hivesight eval` scores photos; the JPEG frames through the photos' path are the reference.
 * It also times `analyseFile` on the clip both ways, and counts still scenes (one frame held for
 * 2 s), where a video's unique insects should be the ones its frame shows.
 *
 *     node bin/run-ts.mjs training/video_frames.ts tmp/eval/hive-entrance-val [--model CARD] [--crf 18]
 */
import { countTracks, createEngine, DEFAULT_MODEL_PATH } from '../engine/index.ts';
import type { ClassCounts, VideoAnalysis } from '../engine/index.ts';
import { Tracker, trackerOptionsFor } from '../engine/tracking/index.ts';
import { frameMedia } from '../engine/video-frames.ts';
import * as ev from '../engine/eval/index.ts';
import type { ImageEval } from '../engine/eval/index.ts';
import { changeText, metricsLine } from './report.ts';

const FPS = 5;
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1]! : fallback;
};
const modelPath = option('--model', DEFAULT_MODEL_PATH);
const crf = option('--crf', '18');
const [root] = args;
if (!root) throw new Error('usage: video_frames.ts HIVE_VAL_VIEW [--model CARD] [--crf N]');

const engine = await createEngine({ modelPath, sampleFps: FPS });
const { detector } = engine;
const dataset = await ev.readDataset(root, ev.buildLabelMap());
if (dataset.kind !== 'boxes') throw new Error(`${root} is not a YOLO box dataset`);
// Frame order: the number after "frame_" (the clip's own order), not the name's text.
const frameNumber = (p: string) => Number(/frame_(\d+)/.exec(p)?.[1] ?? Number.NaN);
const images = [...dataset.images].sort((a, b) => frameNumber(a.path) - frameNumber(b.path));
if (images.some((im) => Number.isNaN(frameNumber(im.path)))) {
  throw new Error('every image name needs its frame number ("..._frame_1181.jpg")');
}

const frameClip = await ev.encodeFrameClip(
  images.map((im) => im.path),
  engine,
  { fps: FPS, crf: Number(crf) },
);
try {
  const { file: clip, media } = frameClip;
  console.log(
    `${images.length} frames -> ${media.width}x${media.height} H.264 (crf ${crf}), ${media.durationS.toFixed(1)} s at ${FPS} fps`,
  );

  const scoring = (analysis: VideoAnalysis) => ({
    thresholds: detector.scoreThresholds(frameMedia(analysis)),
    modelClasses: detector.identity.classes,
  });

  const predictPhoto = ev.createEvalPredictor(engine);
  const photos: ImageEval[] = [];
  for (const image of images) {
    photos.push({
      gt: image.gt,
      predictions: ev.normalisedPredictions(await predictPhoto(image.path)),
    });
  }
  console.log(
    `JPEG frames, photos' path: AP50 ${metricsLine(ev.evaluateBoxes(photos, scoring('thorough')))}`,
  );

  const scored = new Map<VideoAnalysis, ImageEval[]>();
  for (const analysis of ['fast', 'thorough'] as const) {
    const result = await engine.analyse(clip, { videoAnalysis: analysis });
    const perFrame = result.timing.totalMs / Math.max(1, result.frames.length);
    const predicted = await ev.predictClipFrames(frameClip, engine, {
      analysis,
      zoom: result.zoom,
    });
    if (predicted.length !== images.length) {
      throw new Error(`the clip gave ${predicted.length} frames for ${images.length} images`);
    }
    const frames: ImageEval[] = predicted.map((p, i) => ({
      gt: images[i]!.gt,
      predictions: ev.normalisedPredictions(p),
    }));
    scored.set(analysis, frames);
    console.log(
      `video, ${analysis}: AP50 ${metricsLine(ev.evaluateBoxes(frames, scoring(analysis)))}; ` +
        `analyseFile ${(result.timing.totalMs / 1000).toFixed(1)} s for ${result.frames.length} frames ` +
        `(${perFrame.toFixed(0)} ms a frame), zoom ${result.zoom}, ${result.tracks.length} tracks`,
    );
  }

  // Consecutive frames are not independent: bootstrap runs of 10, as product_eval does.
  const change = ev.bootstrapBoxChanges(scored.get('thorough')!, scored.get('fast')!, {
    candidate: scoring('thorough'),
    baseline: scoring('fast'),
    block: 10,
  });
  const aps = Object.entries(change.ap50).map(([c, v]) => `${c} ${changeText(v)}`);
  console.log(
    `thorough - fast: AP50 ${aps.join(', ')}; count error ${changeText(change.count_error_pct)}`,
  );

  // Still scenes: every 5th frame held for 2 s. Nothing moves, so a video's unique honeybees
  // should be the ones its frame shows, and the labels say how many there are. The tracker as
  // analyseFile sets it up, and with high-score starts only (before weak starts).
  const honeybees = (c: ClassCounts) => (c.bee ?? 0) + (c.pollen ?? 0) + (c.drone ?? 0);
  const stills = images.filter((_, i) => i % 5 === 0);
  for (const analysis of ['fast', 'thorough'] as const) {
    const rows: Record<'shown' | 'unique' | 'highOnly', number[]> = {
      shown: [],
      unique: [],
      highOnly: [],
    };
    for (const image of stills) {
      // The frame 2 s long: 10 frames at 5 fps.
      const still = await ev.encodeFrameClip(Array<string>(2 * FPS).fill(image.path), engine, {
        fps: FPS,
        crf: Number(crf),
      });
      const result = await engine
        .analyse(still.file, { videoAnalysis: analysis })
        .finally(() => still.remove());
      const highOnly = new Tracker(trackerOptionsFor(FPS));
      for (const f of result.frames) highOnly.update(f.index, f.detections);
      rows.shown.push(honeybees(result.frames[0]!.counts));
      rows.unique.push(honeybees(result.counts));
      rows.highOnly.push(honeybees(countTracks(highOnly.finish(), detector.identity.classes)));
    }
    const labels = stills.map((im) => im.gt.length);
    const text = (xs: number[]) => {
      const relative = xs.map((x, i) => (x - labels[i]!) / labels[i]!);
      const mean = (ys: number[]) => (100 * ys.reduce((a, b) => a + b, 0)) / ys.length;
      const bias = mean(relative);
      return `${mean(relative.map(Math.abs)).toFixed(1)} % (bias ${bias >= 0 ? '+' : ''}${bias.toFixed(1)} %)`;
    };
    console.log(
      `still scenes, ${analysis} (${stills.length} frames held 2 s, honeybees against the labels): ` +
        `a frame ${text(rows.shown)}, unique ${text(rows.unique)}, unique with high-score starts only ${text(rows.highOnly)}`,
    );
  }
} finally {
  await frameClip.remove();
}
