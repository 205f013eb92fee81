/**
 * The detector's test-time views (card `test_time_augmentation`) with the shipped model: real
 * onnxruntime, a frame drawn here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Box, Detection } from '../types.ts';
import { Detector } from './detector.ts';
import { loadModelCard } from './model-card.ts';
import type { ModelCard } from './model-card.ts';
import { iou } from './nms.ts';
import { viewFrame } from './test-time.ts';
import { recordingSessions, syntheticFrame } from './test-support.ts';

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
    const { score, per_class: perClass } = detector.card.thresholds;
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

  it('sees a mirrored frame as the mirror of the frame (the views are closed under mirroring)', async () => {
    // Without the crop models, which are not mirror-invariant, only the fused detector remains.
    const card = {
      ...(await cardWithViews()),
      subtypeClassifier: undefined,
      boxRefiner: undefined,
    };
    const detector = Detector.fromCard(card, { threads: 1 });
    const frame = syntheticFrame(960, 544);
    const low = { media: 'image' as const, scoreThreshold: 0.05 };
    const found = await detector.detect(frame, 960, 544, low);
    const flipped = await detector.detect(viewFrame(frame, 'flip_h'), 960, 544, low);
    expect(found.length).toBeGreaterThan(2);
    expect(flipped).toHaveLength(found.length);
    const back = flipped.map((d) => ({ ...d, box: mirrored(d.box, 960) }));
    expect(Math.min(...bestOverlaps(found, back))).toBeGreaterThan(0.99);
    await detector.close();
  });
});
