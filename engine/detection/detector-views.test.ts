/**
 * The detector's test-time views (card `test_time_augmentation`) with the shipped model: real
 * onnxruntime, a frame drawn here.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Box, Detection, RawFrame } from '../types.ts';
import { Detector } from './detector.ts';
import { loadModelCard } from './model-card.ts';
import type { ModelCard, SpecialistCard } from './model-card.ts';
import { iou } from './nms.ts';
import { viewFrame, VIEWS } from './test-time.ts';
import type { View } from './test-time.ts';
import { observedSessions, recordingSessions, syntheticFrame } from './test-support.ts';

const CARD = path.resolve('models/hivesight-detector.card.json');

async function cardWithViews(): Promise<ModelCard> {
  return {
    ...(await loadModelCard(CARD)),
    testTimeAugmentation: {
      views: ['identity', 'flip_h', 'flip_v', 'rotate_180'],
      cropViews: ['identity', 'flip_h'],
      media: ['image'],
      matchIou: 0.55,
      floor: 0.01,
      refine: true,
    },
  };
}

/** The views' card without the crop models (not view-invariant): only fused detectors remain. */
async function detectorsOnly(): Promise<ModelCard> {
  return { ...(await cardWithViews()), subtypeClassifier: undefined, boxRefiner: undefined };
}

/** The shipped card's specialist, run on `views`. */
async function shippedSpecialist(views: View[]): Promise<SpecialistCard> {
  return { ...(await loadModelCard(CARD)).testTimeAugmentation!.specialist!, views };
}

const mirrored = (b: Box, width: number): Box => ({ ...b, x: width - b.x - b.width });

/** For each of `a`, the best IoU with a same-class detection of `b`. */
const bestOverlaps = (a: Detection[], b: Detection[]) =>
  a.map((d) => Math.max(0, ...b.filter((e) => e.cls === d.cls).map((e) => iou(d.box, e.box))));

describe('Detector test-time views', () => {
  it('runs every view for the media the card names, one pass for the rest', async () => {
    const runs: number[][] = [];
    const crops: number[][] = [];
    const card = await cardWithViews();
    const detector = Detector.fromCard(card, {
      threads: 1,
      createSession: async (modelPath, options) =>
        (modelPath.endsWith(card.subtypeClassifier!.file)
          ? recordingSessions(crops)
          : recordingSessions(runs, 'hivesight-detector.onnx'))(modelPath, options),
    });
    const frame = syntheticFrame(960, 544);
    const video = await detector.detect(frame, 1920, 1080, { media: 'video' });
    expect(runs).toHaveLength(1);
    const image = await detector.detect(frame, 1920, 1080, { media: 'image' });
    expect(runs).toHaveLength(5);
    await detector.detect(frame, 1920, 1080);
    expect(runs).toHaveLength(6);
    expect(runs.every((dims) => dims.join() === '1,3,544,960')).toBe(true);
    // The classifier sees each honeybee's crop once, and for the named media once per crop view
    // (the fused honeybees are the same with or without crop views: they come before it).
    const once: number[][] = [];
    const oneCropView = Detector.fromCard(
      { ...card, testTimeAugmentation: { ...card.testTimeAugmentation!, cropViews: ['identity'] } },
      { threads: 1, createSession: recordingSessions(once, card.subtypeClassifier!.file) },
    );
    await oneCropView.detect(frame, 1920, 1080, { media: 'image' });
    expect(once[0]![0]).toBeGreaterThan(0);
    expect(crops.map((dims) => dims[0])).toEqual([crops[0]![0], 2 * once[0]![0]!, crops[0]![0]]);
    await oneCropView.close();

    // The fused detections are the same insects, in source pixels, over the same thresholds.
    expect(image.length).toBeGreaterThan(0);
    expect(Math.min(...bestOverlaps(image, video))).toBeGreaterThan(0.5);
    const { score, perClass } = detector.card.thresholds;
    for (const d of image) {
      expect(d.score).toBeGreaterThanOrEqual(perClass?.[d.cls] ?? score);
      expect(d.box.x + d.box.width).toBeLessThanOrEqual(1920 + 1e-6);
      expect(d.box.y + d.box.height).toBeLessThanOrEqual(1080 + 1e-6);
    }
    await detector.close();
  });

  it('runs the box refiner on fused boxes only when the card lets it', async () => {
    const base = await cardWithViews();
    const refinerRuns: number[][] = [];
    const card: ModelCard = {
      ...base,
      testTimeAugmentation: { ...base.testTimeAugmentation!, refine: false },
      // Every class, so the drawn frame surely has something to refine.
      boxRefiner: { ...base.boxRefiner!, classes: ['bee', 'pollen', 'drone', 'hornet'] },
    };
    const detector = Detector.fromCard(card, {
      threads: 1,
      createSession: recordingSessions(refinerRuns, base.boxRefiner!.file),
    });
    const frame = syntheticFrame(960, 544);
    const low = { scoreThreshold: 0.01 };
    expect(await detector.detect(frame, 960, 544, { ...low, media: 'image' })).not.toHaveLength(0);
    expect(refinerRuns).toHaveLength(0);
    await detector.detect(frame, 960, 544, { ...low, media: 'video' });
    expect(refinerRuns).toHaveLength(1);
    await detector.close();
  });

  it("takes the specialist's detections for its classes on the views' media, the card's for the rest", async () => {
    // Without the crop models only the fused detectors remain, so each part can be compared.
    const base = await detectorsOnly();
    const specialist = await shippedSpecialist(base.testTimeAugmentation!.views);
    expect(specialist.classes).toEqual(['hornet']);
    const withSpecialist: ModelCard = {
      ...base,
      testTimeAugmentation: { ...base.testTimeAugmentation!, specialist },
    };
    const runs: number[][] = [];
    const detector = Detector.fromCard(withSpecialist, {
      threads: 1,
      createSession: recordingSessions(runs, specialist.file),
    });
    // The specialist as the only detector, and the card's detector alone.
    const alone = Detector.fromCard(
      { ...base, file: specialist.file, modelPath: specialist.modelPath },
      { threads: 1 },
    );
    const own = Detector.fromCard(base, { threads: 1 });
    try {
      const frame = syntheticFrame(960, 544);
      const low = { media: 'image' as const, scoreThreshold: 0.01 };
      const found = await detector.detect(frame, 960, 544, low);
      expect(runs).toHaveLength(4); // once per view
      await detector.detect(frame, 960, 544, { ...low, media: 'video' });
      expect(runs).toHaveLength(4); // video frames keep one network
      const only = (ds: Detection[], keep: boolean) =>
        ds.filter((d) => (d.cls === 'hornet') === keep).map((d) => [d.cls, d.score, d.box]);
      const fromSpecialist = await alone.detect(frame, 960, 544, low);
      const fromOwn = await own.detect(frame, 960, 544, low);
      expect(only(found, true).length).toBeGreaterThan(0);
      expect(only(found, false).length).toBeGreaterThan(0);
      expect(only(found, true)).toEqual(only(fromSpecialist, true));
      expect(only(found, false)).toEqual(only(fromOwn, false));
      expect(only(found, true)).not.toEqual(only(fromOwn, true));
    } finally {
      await Promise.all([detector.close(), alone.close(), own.close()]);
    }
  });

  it('runs the specialist over its own views, turned frames included', async () => {
    const base = await detectorsOnly();
    const specialist = await shippedSpecialist(['identity', 'rotate_90']);
    const runs: number[][] = [];
    // The detector itself on one view: the specialist still runs on its two.
    const detector = Detector.fromCard(
      {
        ...base,
        testTimeAugmentation: { ...base.testTimeAugmentation!, views: ['identity'], specialist },
      },
      { threads: 1, createSession: recordingSessions(runs, specialist.file) },
    );
    // The specialist alone over the same two views.
    const alone = Detector.fromCard(
      {
        ...base,
        file: specialist.file,
        modelPath: specialist.modelPath,
        testTimeAugmentation: { ...base.testTimeAugmentation!, views: specialist.views },
      },
      { threads: 1 },
    );
    try {
      const frame = syntheticFrame(960, 544);
      const low = { media: 'image' as const, scoreThreshold: 0.01 };
      const found = await detector.detect(frame, 960, 544, low);
      expect(runs).toEqual([
        [1, 3, 544, 960],
        [1, 3, 960, 544],
      ]);
      const hornets = (ds: Detection[]) =>
        ds.filter((d) => d.cls === 'hornet').map((d) => [d.score, d.box]);
      expect(hornets(found).length).toBeGreaterThan(0);
      expect(hornets(found)).toEqual(hornets(await alone.detect(frame, 960, 544, low)));
    } finally {
      await Promise.all([detector.close(), alone.close()]);
    }
  });

  it("runs the test-time detector in the card's place on the views' media, at its own score", async () => {
    const base = await detectorsOnly();
    // Another network with the card's input and output: the shipped hornet specialist.
    const other = await shippedSpecialist(['identity']);
    const views: View[] = ['identity', 'flip_h'];
    const inPlace = { file: other.file, modelPath: other.modelPath, score: 0.01 };
    const tta = { ...base.testTimeAugmentation!, views };
    const used: string[] = [];
    const detector = Detector.fromCard(
      { ...base, testTimeAugmentation: { ...tta, detector: inPlace } },
      { threads: 1, createSession: observedSessions((p) => used.push(path.basename(p))) },
    );
    // That network as the card's own detector at that score, and the card's alone.
    const alone = Detector.fromCard(
      {
        ...base,
        file: other.file,
        modelPath: other.modelPath,
        thresholds: { ...base.thresholds, score: inPlace.score },
        testTimeAugmentation: tta,
      },
      { threads: 1 },
    );
    const own = Detector.fromCard({ ...base, testTimeAugmentation: tta }, { threads: 1 });
    try {
      const frame = syntheticFrame(960, 544);
      const photo = await detector.detect(frame, 960, 544, { media: 'image' });
      expect(used).toEqual([other.file, other.file]); // once per view
      const video = await detector.detect(frame, 960, 544, { media: 'video' });
      expect(used.slice(2)).toEqual([base.file]);
      expect(photo.length).toBeGreaterThan(0);
      expect(photo).toEqual(await alone.detect(frame, 960, 544, { media: 'image' }));
      expect(video).toEqual(await own.detect(frame, 960, 544, { media: 'video' }));
      expect(photo).not.toEqual(await own.detect(frame, 960, 544, { media: 'image' }));
      // Its score replaces the card's where no per-class threshold is set, on its media only.
      const perClass = base.thresholds.perClass ?? {};
      expect(detector.scoreThresholds('image')).toEqual({ score: 0.01, perClass });
      expect(detector.scoreThresholds('video')).toEqual({ score: base.thresholds.score, perClass });
      expect(detector.scoreThresholds()).toEqual({ score: base.thresholds.score, perClass });
      // A track score is for frames that get the card's detector alone.
      const tracked = Detector.fromCard(
        {
          ...base,
          thresholds: { ...base.thresholds, trackScore: { drone: 0.4 } },
          testTimeAugmentation: tta,
        },
        { threads: 1 },
      );
      expect([tracked.trackScores('video'), tracked.trackScores('image')]).toEqual([
        { drone: 0.4 },
        undefined,
      ]);
      expect(detector.trackScores('video')).toEqual(base.thresholds.trackScore);
      for (const d of photo) expect(d.score).toBeGreaterThanOrEqual(perClass[d.cls] ?? 0.01);
      // The synthetic bees score under the card's own threshold: only its score keeps them.
      expect(photo.some((d) => d.score < base.thresholds.score)).toBe(true);
    } finally {
      await Promise.all([detector.close(), alone.close(), own.close()]);
    }
  });

  // A frame seen through a view is the view of the frame when the card's views are closed under
  // it: the mirrors under mirroring, all eight under turning. `back` maps a box of the viewed
  // 960x544 frame onto the frame.
  it.each([
    ['flip_h', VIEWS.slice(0, 4), (b: Box) => mirrored(b, 960)],
    // Clockwise: the turned frame's (x, y) is the frame's (y, 544 - x).
    [
      'rotate_90',
      [...VIEWS],
      (b: Box) => ({ x: b.y, y: 544 - b.x - b.width, width: b.height, height: b.width }),
    ],
  ] as const)('sees the frame through %s as that view of the frame', async (view, views, back) => {
    const base = await detectorsOnly();
    const card: ModelCard = {
      ...base,
      testTimeAugmentation: { ...base.testTimeAugmentation!, views: [...views] },
    };
    const detector = Detector.fromCard(card, { threads: 1 });
    try {
      const frame = syntheticFrame(960, 544);
      const seen = viewFrame(frame, view);
      const low = { media: 'image' as const, scoreThreshold: 0.05 };
      const found = await detector.detect(frame, 960, 544, low);
      const viewed = await detector.detect(seen, seen.width, seen.height, low);
      expect(found.length).toBeGreaterThan(2);
      expect(viewed).toHaveLength(found.length);
      const mapped = viewed.map((d) => ({ ...d, box: back(d.box) }));
      expect(Math.min(...bestOverlaps(found, mapped))).toBeGreaterThan(0.99);
    } finally {
      await detector.close();
    }
  });

  it('types photos with the classifier the views swap in, cropping it from the detail frame', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hivesight-detail-'));
    const base = await cardWithViews();
    const own = base.subtypeClassifier!;
    // The shipped classifier under another name: which model ran is told by its file.
    const detailPath = path.join(dir, 'detail.onnx');
    await copyFile(own.modelPath, detailPath);
    const card: ModelCard = {
      ...base,
      testTimeAugmentation: {
        ...base.testTimeAugmentation!,
        cropViews: ['identity'],
        subtypeClassifier: { ...own, file: 'detail.onnx', modelPath: detailPath, detail: 2 },
      },
    };
    const fed: { file: string; crops: Float32Array }[] = [];
    const recording = observedSessions((modelPath, feeds) => {
      const crops = Object.values(feeds)[0]!.data as Float32Array;
      fed.push({ file: path.basename(modelPath), crops: crops.slice() });
    });
    const detector = Detector.fromCard(card, { threads: 1, createSession: recording });
    try {
      expect(detector.detailSizeFor(3840, 1080, 'image')).toEqual({ width: 2304, height: 640 });
      expect(detector.detailSizeFor(1920, 1080, 'image')).toEqual({ width: 1600, height: 896 });
      expect(detector.detailSizeFor(1280, 720, 'image')).toEqual({ width: 1280, height: 720 });
      expect(detector.detailSizeFor(3840, 1080, 'video')).toBeUndefined();
      // A small photo is decoded whole for the detector: there are no more pixels to give.
      expect(detector.detailSizeFor(320, 256, 'image')).toBeUndefined();

      const frame = syntheticFrame(960, 544);
      const amber: RawFrame = {
        ...frame,
        width: 1920,
        height: 1080,
        data: new Uint8Array(1920 * 1080 * 3),
      };
      for (let i = 0; i < amber.data.length; i += 3) amber.data.set([216, 155, 43], i);
      const low = { scoreThreshold: 0.05 };
      await detector.detect(frame, 1920, 1080, { ...low, media: 'image', detailFrame: amber });
      await detector.detect(frame, 1920, 1080, { ...low, media: 'image' });
      await detector.detect(frame, 1920, 1080, { ...low, media: 'video', detailFrame: amber });
      const classifiers = fed.filter((f) => f.file === 'detail.onnx' || f.file === own.file);
      expect(classifiers.map((f) => f.file)).toEqual(['detail.onnx', 'detail.onnx', own.file]);
      const [fromDetail, fromFrame] = classifiers.map((f) => f.crops);
      // Every crop of the detail frame is its one colour; crops of the frame itself are not.
      expect(fromDetail!.length).toBeGreaterThan(0);
      const plane = own.input.size * own.input.size;
      expect(Math.min(...fromDetail!.subarray(0, plane))).toBeCloseTo(216 / 255, 5);
      expect(Math.max(...fromDetail!.subarray(0, plane))).toBeCloseTo(216 / 255, 5);
      expect(new Set(fromFrame!.subarray(0, plane)).size).toBeGreaterThan(1);
      await expect(
        detector.detect(frame, 1920, 1080, {
          media: 'image',
          detailFrame: { ...amber, width: 10 },
        }),
      ).rejects.toThrow(/Detail frame 10x1080 must carry/);
    } finally {
      await detector.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
