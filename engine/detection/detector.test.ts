/**
 * The detector against the shipped model (models/hivesight-detector.*): real onnxruntime, a frame
 * drawn here with canvas.
 */
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.ts';
import { PRODUCT_CLASSES } from '../types.ts';
import type { Box, ProductClass } from '../types.ts';
import { makeDetection } from './detection.ts';
import { Detector } from './detector.ts';
import { nonMaxSuppression } from './nms.ts';
import { recordingSessions, syntheticFrame } from './test-support.ts';
import type { SessionFactory } from './detector.ts';
import type { ModelCard, SubtypeClassifierCard } from './model-card.ts';

const CARD = path.resolve('models/hivesight-detector.card.json');
const ONNX = path.resolve('models/hivesight-detector.onnx');

/** A card without `typed_nms_iou`, so that tests of typing and refining see those alone. */
function untwinned(card: ModelCard): ModelCard {
  const { typedNmsIou: _twins, ...thresholds } = card.thresholds;
  return { ...card, thresholds };
}

function countingFactory(): { factory: SessionFactory; calls: () => number; runs: number[][] } {
  let calls = 0;
  const runs: number[][] = [];
  const record = recordingSessions(runs);
  const factory: SessionFactory = (modelPath, options) => {
    calls++;
    return record(modelPath, options);
  };
  return { factory, calls: () => calls, runs };
}

/**
 * Real sessions, except the one for the model file ending in `file`, which answers `row` for
 * every crop as its output `output` and records the dims of what it was given in `seen`.
 */
function withFixedAnswer(
  file: string,
  output: string,
  row: number[],
  seen: number[][],
): SessionFactory {
  return async (modelPath, options) => {
    const session = await ort.InferenceSession.create(modelPath, options);
    if (!modelPath.endsWith(file)) return session;
    return {
      inputNames: session.inputNames,
      outputNames: session.outputNames,
      run: (feeds) => {
        const dims = [...Object.values(feeds)[0]!.dims];
        seen.push(dims);
        const n = dims[0]!;
        const data = Float32Array.from({ length: n * row.length }, (_, i) => row[i % row.length]!);
        return Promise.resolve({ [output]: new ort.Tensor('float32', data, [n, row.length]) });
      },
      release: () => session.release(),
    };
  };
}

describe('Detector (shipped model)', () => {
  it('declares its identity from the card, by card or by .onnx path', async () => {
    const byCard = await Detector.open(CARD);
    const byOnnx = await Detector.open(ONNX);
    expect(byOnnx.identity).toEqual(byCard.identity);
    expect(byCard.identity).toMatchObject({
      name: 'hivesight-detector',
      inputWidth: 1152,
      inputHeight: 448,
    });
    expect(byCard.identity.version).toBe(byCard.card.version);
    for (const cls of byCard.identity.classes) expect(PRODUCT_CLASSES).toContain(cls);
    expect(byCard.identity.classes).toEqual(
      PRODUCT_CLASSES.filter((c) => byCard.card.classes.includes(c)),
    );
  });

  it("carries the card's alert scores in its identity, where the card names any", async () => {
    const { card } = await Detector.open(CARD);
    const { alert: _alert, ...thresholds } = card.thresholds;
    expect(Detector.fromCard({ ...card, thresholds }).identity.alertScores).toBeUndefined();
    const alerting = Detector.fromCard({
      ...card,
      thresholds: { ...thresholds, alert: { hornet: 0.6 } },
    });
    expect(alerting.identity.alertScores).toEqual({ hornet: 0.6 });
  });

  it('sizes inputs to fit inside the nominal size in multiples of the stride', async () => {
    const detector = await Detector.open(CARD);
    expect(detector.inputSizeFor(1920, 1080)).toEqual({ width: 800, height: 448 });
    expect(detector.inputSizeFor(3840, 1080)).toEqual({ width: 1152, height: 320 });
    expect(detector.inputSizeFor(1080, 1920)).toEqual({ width: 256, height: 448 });
    expect(detector.inputSizeFor(10_000, 10)).toEqual({ width: 1152, height: 32 });
    expect(() => detector.inputSizeFor(0, 10)).toThrow(RangeError);
  });

  it('never enlarges a smaller source unless the card allows it', async () => {
    const detector = await Detector.open(CARD);
    expect(detector.card.input.maxUpscale).toBe(1);
    expect(detector.inputSizeFor(640, 480)).toEqual({ width: 608, height: 448 });
    expect(detector.inputSizeFor(400, 300)).toEqual({ width: 416, height: 288 });
    expect(detector.inputSizeFor(180, 300)).toEqual({ width: 192, height: 288 });
    const card = { ...detector.card, input: { ...detector.card.input, maxUpscale: 2 } };
    const enlarging = Detector.fromCard(card);
    expect(enlarging.inputSizeFor(400, 300)).toEqual({ width: 608, height: 448 });
    expect(enlarging.inputSizeFor(180, 300)).toEqual({ width: 256, height: 448 });
  });

  it('sizes inputs for a zoom: the nominal size scaled, never the source enlarged', async () => {
    const detector = await Detector.open(CARD);
    expect(detector.inputSizeFor(1920, 1080, 1)).toEqual(detector.inputSizeFor(1920, 1080));
    expect(detector.inputSizeFor(1920, 1080, 0.5)).toEqual({ width: 384, height: 224 });
    expect(detector.inputSizeFor(3840, 1080, 2)).toEqual({ width: 2304, height: 640 });
    expect(detector.inputSizeFor(7680, 2160, 1.5)).toEqual({ width: 1728, height: 480 });
    expect(detector.inputSizeFor(1280, 720, 2)).toEqual({ width: 1280, height: 736 });
    expect(() => detector.inputSizeFor(1920, 1080, 0)).toThrow(RangeError);
    const fixed = Detector.fromCard({
      ...detector.card,
      input: { ...detector.card.input, dynamic: false },
    });
    expect(() => fixed.inputSizeFor(1920, 1080, 2)).toThrow(RangeError);
  });

  it('judges a zoom only where the input can show it: a small picture is never enlarged', async () => {
    const detector = await Detector.open(CARD);
    const autoZoom = detector.card.input.autoZoom!;
    const bees = (side: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        makeDetection('bee', 0.9, { x: i * 100, y: 0, width: side, height: side }),
      );
    // Bees half the learnt size (in input pixels) in a 1080p frame: the zoom decodes it larger.
    const frameWidth = detector.inputSizeFor(1920, 1080).width;
    const half = (autoZoom.insectPx / 2) * (1920 / frameWidth);
    expect(detector.zoomFor(bees(half, 8), frameWidth, 1920, 1080)).toBeCloseTo(2, 5);
    // The same bees in a 640x360 picture, already at its own pixels: nothing to gain.
    const small = detector.inputSizeFor(640, 360).width;
    expect(detector.zoomFor(bees(autoZoom.insectPx / 2, 8), small, 640, 360)).toBe(1);
  });

  it('loads the session lazily, once, and returns boxes in source pixels', async () => {
    const counting = countingFactory();
    const detector = await Detector.open(CARD, { createSession: counting.factory, threads: 1 });
    expect(counting.calls()).toBe(0);

    const source = { width: 1920, height: 1080 };
    const size = detector.inputSizeFor(source.width, source.height);
    const frame = syntheticFrame(size.width, size.height);
    const [a, b] = await Promise.all([
      detector.detect(frame, source.width, source.height),
      detector.detect(frame, source.width, source.height),
    ]);
    await detector.detect({ ...frame, index: 1 }, source.width, source.height, {
      scoreThreshold: 0.01,
    });
    // One detector session and, for the shipped card, one subtype classifier session and one box
    // refiner session (at 0.01 the drawn frame has a hornet or two for it to redraw).
    const { subtypeClassifier, boxRefiner } = detector.card;
    expect(counting.calls()).toBe(1 + (subtypeClassifier ? 1 : 0) + (boxRefiner ? 1 : 0));
    expect(counting.runs.filter((dims) => dims[1] === 3 && dims[2] === 448)).toEqual([
      [1, 3, 448, 800],
      [1, 3, 448, 800],
      [1, 3, 448, 800],
    ]);
    expect(b).toEqual(a);

    const low = await detector.detect(frame, source.width, source.height, { scoreThreshold: 0.01 });
    expect(low.length).toBeGreaterThanOrEqual(a.length);
    expect(low.length).toBeGreaterThan(0);
    for (const d of low) {
      expect(detector.identity.classes).toContain(d.cls);
      expect(d.score).toBeGreaterThanOrEqual(0.01);
      expect(d.box.x).toBeGreaterThanOrEqual(0);
      expect(d.box.y).toBeGreaterThanOrEqual(0);
      expect(d.box.x + d.box.width).toBeLessThanOrEqual(source.width + 1e-6);
      expect(d.box.y + d.box.height).toBeLessThanOrEqual(source.height + 1e-6);
    }
    // Source coordinates: some box lies beyond the model's input area.
    expect(
      low.some((d) => d.box.x + d.box.width > size.width || d.box.y + d.box.height > size.height),
    ).toBe(true);
    const { score, perClass } = detector.card.thresholds;
    for (const d of a) expect(d.score).toBeGreaterThanOrEqual(perClass?.[d.cls] ?? score);
    await detector.close();
  });

  it('pads a frame that is not a multiple of the stride', async () => {
    const counting = countingFactory();
    const detector = await Detector.open(CARD, { createSession: counting.factory, threads: 1 });
    const frame = syntheticFrame(300, 200);
    const dets = await detector.detect(frame, 600, 400, { scoreThreshold: 0.05 });
    expect(counting.runs[0]).toEqual([1, 3, 224, 320]);
    for (const d of dets) {
      expect(d.box.x + d.box.width).toBeLessThanOrEqual(600 + 1e-6);
      expect(d.box.y + d.box.height).toBeLessThanOrEqual(400 + 1e-6);
    }
    await detector.close();
  });

  it('refuses frames whose bytes do not match their size', async () => {
    const detector = await Detector.open(CARD);
    const frame = { index: 0, timeS: 0, width: 10, height: 10, data: new Uint8Array(10) };
    await expect(detector.detect(frame, 10, 10)).rejects.toThrow(RangeError);
  });

  it('reports a card naming a tensor the model lacks, and retries after a failed load', async () => {
    const base = await Detector.open(CARD);
    let calls = 0;
    const detector = Detector.fromCard(
      { ...base.card, input: { ...base.card.input, name: 'pixels' } },
      {
        createSession: (p, o) => {
          calls++;
          return ort.InferenceSession.create(p, o);
        },
      },
    );
    await expect(detector.load()).rejects.toThrow(ModelError);
    await expect(detector.load()).rejects.toThrow(/input\.name "pixels"/);
    expect(calls).toBe(2);
  });
});

describe('Detector.warm', () => {
  /** The model files a detector opens sessions of, in the order it opens them. */
  const opening =
    (opened: string[]): SessionFactory =>
    (p, o) => {
      opened.push(path.basename(p));
      return ort.InferenceSession.create(p, o);
    };

  it('opens, ahead of the first frame, the sessions a frame of that media may use, and no other', async () => {
    const opened = async (media: 'video' | 'image') => {
      const warmed: string[] = [];
      const early = await Detector.open(CARD, { createSession: opening(warmed) });
      await early.warm(media);
      const used: string[] = [];
      const late = await Detector.open(CARD, { createSession: opening(used) });
      const frame = syntheticFrame(640, 480);
      expect(await late.detect(frame, 640, 480, { media })).not.toHaveLength(0);
      // Warm, the first frame opens nothing more.
      const before = warmed.length;
      await early.detect(frame, 640, 480, { media });
      expect(warmed).toHaveLength(before);
      await Promise.all([early.close(), late.close()]);
      return { warmed: new Set(warmed), used: new Set(used) };
    };
    const video = await opened('video');
    const image = await opened('image');
    for (const { warmed, used } of [video, image]) {
      for (const model of used) expect(warmed).toContain(model);
    }
    // Each media's own detector only: a video never opens the photos' networks, nor a photo the
    // video network.
    expect(video.warmed).not.toContain('hivesight-detector-photo.onnx');
    expect(image.warmed).not.toContain('hivesight-detector.onnx');
  });
});

describe('Detector with a subtype classifier', () => {
  /**
   * The real detector; the classifier session answers the same row for every crop: `types` in
   * the card's type order and, where the card has one, `none` in its "not a honeybee" column.
   */
  function withFixedTypes(
    sc: SubtypeClassifierCard,
    types: number[],
    seen: number[][],
    none = 0,
  ): SessionFactory {
    const row = new Array<number>(sc.columns).fill(0);
    sc.typeColumns.forEach((column, j) => (row[column] = types[j]!));
    if (sc.noneColumn !== null) row[sc.noneColumn] = none;
    return withFixedAnswer('hivesight-beetype.onnx', 'types', row, seen);
  }

  /** The shipped card with the classifier alone deciding (no blend with the detector's split). */
  async function classifierOnly(): Promise<
    ModelCard & { subtypeClassifier: SubtypeClassifierCard }
  > {
    const shipped = await Detector.open(CARD);
    const sc = { ...shipped.card.subtypeClassifier!, detectorWeights: [0, 0, 0] };
    return { ...untwinned(shipped.card), subtypeClassifier: sc };
  }

  it('ships a classifier for worker, pollen and drone', async () => {
    const detector = await Detector.open(CARD);
    expect(detector.card.subtypeClassifier?.classes).toEqual(['bee', 'pollen', 'drone']);
    expect(detector.card.subtypeClassifier?.input.size).toBe(48);
  });

  it("gives each honeybee the classifier's class, scored by its probability", async () => {
    const card = await classifierOnly();
    const sc = card.subtypeClassifier;
    const frame = syntheticFrame(960, 544);
    const plain = Detector.fromCard({ ...card, subtypeClassifier: undefined }, { threads: 1 });
    const honeybees = (await plain.detect(frame, 960, 544, { scoreThreshold: 0.01 })).filter(
      (d) => d.cls !== 'hornet',
    );
    expect(honeybees.length).toBeGreaterThan(0);

    const seen: number[][] = [];
    const allPollen = Detector.fromCard(card, {
      threads: 1,
      createSession: withFixedTypes(sc, [0, 1, 0], seen),
    });
    const typed = await allPollen.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    const pollen = typed.filter((d) => d.cls !== 'hornet');
    expect(pollen.length).toBeGreaterThan(0);
    expect(pollen.every((d) => d.cls === 'pollen')).toBe(true);
    expect(seen).toEqual([[pollen.length, 3, 48, 48]]);
    // Scores are summed honeybee scores: at least the best single-class score at that place.
    expect(Math.max(...pollen.map((d) => d.score))).toBeGreaterThanOrEqual(
      Math.max(...honeybees.map((d) => d.score)) - 1e-6,
    );

    const halves = Detector.fromCard(card, {
      threads: 1,
      createSession: withFixedTypes(sc, [0.2, 0.3, 0.5], []),
    });
    const drones = (await halves.detect(frame, 960, 544, { scoreThreshold: 0.01 })).filter(
      (d) => d.cls !== 'hornet',
    );
    expect(drones.every((d) => d.cls === 'drone')).toBe(true);
    const byBox = new Map(pollen.map((d) => [JSON.stringify(d.box), d.score]));
    for (const d of drones) expect(d.score).toBeCloseTo(0.5 * byBox.get(JSON.stringify(d.box))!, 5);
    // Below the threshold after the split: dropped.
    expect(drones.length).toBe(pollen.filter((d) => 0.5 * d.score >= 0.01).length);
    await Promise.all([plain.close(), allPollen.close(), halves.close()]);
  });

  it("scales a honeybee down by the classifier's belief that it is none", async () => {
    const card = await classifierOnly();
    const sc = { ...card.subtypeClassifier, typeColumns: [0, 1, 2], noneColumn: 3, columns: 4 };
    const frame = syntheticFrame(960, 544);
    const detect = async (none: number) => {
      const detector = Detector.fromCard(
        { ...card, subtypeClassifier: sc },
        { threads: 1, createSession: withFixedTypes(sc, [0, 1, 0], [], none) },
      );
      const dets = await detector.detect(frame, 960, 544, { scoreThreshold: 0.01 });
      await detector.close();
      return dets.filter((d) => d.cls !== 'hornet');
    };
    const sure = await detect(0);
    const doubtful = await detect(0.75);
    const byBox = new Map(sure.map((d) => [JSON.stringify(d.box), d.score]));
    expect(doubtful.length).toBeGreaterThan(0);
    expect(doubtful.length).toBeLessThanOrEqual(sure.length);
    for (const d of doubtful) {
      expect(d.cls).toBe('pollen');
      expect(d.score).toBeCloseTo(0.25 * byBox.get(JSON.stringify(d.box))!, 5);
    }
  });

  it("suppresses typed twins at the class's typed_nms_iou, on frames without test-time views", async () => {
    const card = await classifierOnly();
    const sc = card.subtypeClassifier;
    const frame = syntheticFrame(960, 544);
    // Every honeybee typed drone, at the low eval floor where boxes on one insect abound.
    const detector = (thresholds: ModelCard['thresholds'], tta = card.testTimeAugmentation) =>
      Detector.fromCard(
        { ...card, thresholds, testTimeAugmentation: tta },
        { threads: 1, createSession: withFixedTypes(sc, [0, 0, 1], []) },
      );
    const plain = detector(card.thresholds);
    const own = detector({ ...card.thresholds, typedNmsIou: { drone: 0.05 } });
    const video = { scoreThreshold: 0.01, media: 'video' as const };
    const all = await plain.detect(frame, 960, 544, video);
    const kept = await own.detect(frame, 960, 544, video);
    const drones = (ds: typeof all) => ds.filter((d) => d.cls === 'drone');
    expect(kept).toEqual(nonMaxSuppression(all, (cls) => (cls === 'drone' ? 0.05 : 1)));
    expect(drones(kept).length).toBeGreaterThan(0);
    expect(drones(kept).length).toBeLessThan(drones(all).length);
    expect(kept.filter((d) => d.cls !== 'drone')).toEqual(all.filter((d) => d.cls !== 'drone'));
    // Where views run (photos here), their fusion decides: no second suppression, though the
    // fused boxes hold same-class twins it would take.
    const views = card.testTimeAugmentation;
    const photo = { scoreThreshold: 0.01, media: 'image' as const };
    const everyClass = { bee: 0.05, pollen: 0.05, drone: 0.05 };
    const withViews = detector({ ...card.thresholds, typedNmsIou: everyClass }, views);
    const withoutOwn = detector(card.thresholds, views);
    const fused = await withoutOwn.detect(frame, 960, 544, photo);
    expect(fused.length).toBeGreaterThan(nonMaxSuppression(fused, 0.05).length);
    expect(await withViews.detect(frame, 960, 544, photo)).toEqual(fused);
    await Promise.all([plain, own, withViews, withoutOwn].map((d) => d.close()));
  });

  it('types at most max_crops honeybees per frame, the best ones', async () => {
    const base = await Detector.open(CARD);
    const seen: number[][] = [];
    const sc = { ...base.card.subtypeClassifier!, maxCrops: 2 };
    const detector = Detector.fromCard(
      { ...base.card, subtypeClassifier: sc },
      { threads: 1, createSession: withFixedTypes(sc, [1, 0, 0], seen) },
    );
    const dets = await detector.detect(syntheticFrame(960, 544), 960, 544, {
      scoreThreshold: 0.01,
    });
    expect(dets.filter((d) => d.cls !== 'hornet').length).toBeLessThanOrEqual(2);
    expect(seen).toEqual([[2, 3, 48, 48]]);
    await detector.close();
  });
});

describe('Detector with a box refiner', () => {
  /** The real detector; the refiner session answers `row` for every crop and records its input. */
  const withFixedRefiner = (row: number[], seen: number[][]) =>
    withFixedAnswer('hivesight-refiner.onnx', 'boxes', row, seen);

  /**
   * The shipped card without the subtype classifier, so boxes and classes are the detector's,
   * with the refiner redrawing `classes` (default: every class).
   */
  async function refinerOnly(maxCrops?: number, classes?: ProductClass[]): Promise<ModelCard> {
    const shipped = await Detector.open(CARD);
    const refiner = shipped.card.boxRefiner!;
    return {
      ...untwinned(shipped.card),
      subtypeClassifier: undefined,
      boxRefiner: {
        ...refiner,
        maxCrops: maxCrops ?? refiner.maxCrops,
        classes: classes ?? ['bee', 'pollen', 'drone', 'hornet'],
      },
    };
  }

  const key = (b: Box) => [b.x, b.y, b.width, b.height].map((v) => v.toFixed(3)).join(',');

  it('ships a refiner for hornets that reads 64 px crops of twice the box', async () => {
    const detector = await Detector.open(CARD);
    expect(detector.card.boxRefiner?.input).toMatchObject({ size: 64, context: 2, crop: 'box' });
    expect(detector.card.boxRefiner?.classes).toEqual(['hornet']);
  });

  it("redraws every detection's box from its crop, in source pixels, then suppresses again", async () => {
    const card = await refinerOnly();
    const frame = syntheticFrame(960, 544);
    const plain = Detector.fromCard({ ...card, boxRefiner: undefined }, { threads: 1 });
    const found = await plain.detect(frame, 1920, 1088, { scoreThreshold: 0.01 });
    expect(found.length).toBeGreaterThan(1);

    // Every crop answers "the same box, moved right by a fifth of its width".
    const seen: number[][] = [];
    const refined = Detector.fromCard(card, {
      threads: 1,
      createSession: withFixedRefiner([0.2, 0, 0, 0], seen),
    });
    const moved = await refined.detect(frame, 1920, 1088, { scoreThreshold: 0.01 });
    expect(seen).toEqual([[found.length, 3, 64, 64]]);
    const expected = new Map<string, { cls: string; score: number }>();
    for (const d of found) {
      const x1 = Math.min(1920, d.box.x + 0.2 * d.box.width);
      const x2 = Math.min(1920, d.box.x + 1.2 * d.box.width);
      expected.set(key({ ...d.box, x: x1, width: x2 - x1 }), d);
    }
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThanOrEqual(found.length);
    for (const d of moved) {
      const from = expected.get(key(d.box));
      expect(from, `refined box ${key(d.box)}`).toBeDefined();
      expect(d).toMatchObject({ cls: from!.cls, score: from!.score });
    }
    await Promise.all([plain.close(), refined.close()]);
  });

  it('refines at most max_crops detections per frame, the best ones', async () => {
    const card = await refinerOnly(2);
    const frame = syntheticFrame(960, 544);
    const plain = Detector.fromCard({ ...card, boxRefiner: undefined }, { threads: 1 });
    const found = await plain.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    expect(found.length).toBeGreaterThan(2);
    const seen: number[][] = [];
    const detector = Detector.fromCard(card, {
      threads: 1,
      // Half the box, about its centre.
      createSession: withFixedRefiner([0, 0, Math.log(0.5), Math.log(0.5)], seen),
    });
    const dets = await detector.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    expect(seen).toEqual([[2, 3, 64, 64]]);
    const shrunk = found.slice(0, 2).map(({ box }) =>
      key({
        x: box.x + box.width / 4,
        y: box.y + box.height / 4,
        width: box.width / 2,
        height: box.height / 2,
      }),
    );
    expect(dets.map((d) => key(d.box)).sort()).toEqual(
      [...shrunk, ...found.slice(2).map((d) => key(d.box))].sort(),
    );
    await Promise.all([plain.close(), detector.close()]);
  });

  it("redraws only the boxes of the refiner's classes", async () => {
    const card = await refinerOnly(undefined, ['bee']);
    const frame = syntheticFrame(960, 544);
    const plain = Detector.fromCard({ ...card, boxRefiner: undefined }, { threads: 1 });
    const found = await plain.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    const bees = found.filter((d) => d.cls === 'bee');
    const others = found.filter((d) => d.cls !== 'bee');
    expect(bees.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    const seen: number[][] = [];
    const detector = Detector.fromCard(card, {
      threads: 1,
      createSession: withFixedRefiner([0, 0, Math.log(0.5), Math.log(0.5)], seen),
    });
    const dets = await detector.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    expect(seen).toEqual([[bees.length, 3, 64, 64]]);
    const kept = new Set(dets.map((d) => `${d.cls} ${key(d.box)}`));
    for (const d of others) expect(kept.has(`${d.cls} ${key(d.box)}`)).toBe(true);
    for (const d of bees) expect(kept.has(`bee ${key(d.box)}`)).toBe(false);
    await Promise.all([plain.close(), detector.close()]);
  });

  it('suppresses again: grown boxes that now overlap a better one are dropped', async () => {
    const card = await refinerOnly();
    const frame = syntheticFrame(960, 544);
    const plain = Detector.fromCard({ ...card, boxRefiner: undefined }, { threads: 1 });
    const found = await plain.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    const detector = Detector.fromCard(card, {
      threads: 1,
      // Every box four times as wide and as tall, about its centre.
      createSession: withFixedRefiner([0, 0, Math.log(4), Math.log(4)], []),
    });
    const dets = await detector.detect(frame, 960, 544, { scoreThreshold: 0.01 });
    const grown = found.map((d) => {
      const cx = d.box.x + d.box.width / 2;
      const cy = d.box.y + d.box.height / 2;
      const x1 = Math.max(0, cx - 2 * d.box.width);
      const y1 = Math.max(0, cy - 2 * d.box.height);
      const x2 = Math.min(960, cx + 2 * d.box.width);
      const y2 = Math.min(544, cy + 2 * d.box.height);
      return makeDetection(d.cls, d.score, { x: x1, y: y1, width: x2 - x1, height: y2 - y1 });
    });
    const expected = nonMaxSuppression(grown, card.thresholds.nmsIou);
    expect(expected.length).toBeLessThan(found.length);
    expect(dets.map((d) => `${d.cls} ${key(d.box)}`).sort()).toEqual(
      expected.map((d) => `${d.cls} ${key(d.box)}`).sort(),
    );
    await Promise.all([plain.close(), detector.close()]);
  });
});
