/**
 * The detector against the shipped model (models/hivesight-detector.*): real onnxruntime, a frame
 * drawn here with canvas.
 */
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.ts';
import { PRODUCT_CLASSES } from '../types.ts';
import { makeDetection } from './detection.ts';
import { Detector } from './detector.ts';
import { nonMaxSuppression } from './nms.ts';
import { recordingSessions, syntheticFrame } from './test-support.ts';
import type { SessionFactory } from './detector.ts';

const CARD = path.resolve('models/hivesight-detector.card.json');
const ONNX = path.resolve('models/hivesight-detector.onnx');

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
    expect(counting.calls()).toBe(1);
    expect(counting.runs).toEqual([
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

  it("suppresses a class's weaker twins again at its typed_nms_iou", async () => {
    const { card } = await Detector.open(CARD);
    const { typedNmsIou: _own, ...thresholds } = card.thresholds;
    const frame = syntheticFrame(960, 544);
    // At the eval floor, where boxes on one insect abound.
    const low = { scoreThreshold: 0.01 };
    const plain = Detector.fromCard({ ...card, thresholds }, { threads: 1 });
    const all = await plain.detect(frame, 960, 544, low);
    const ofClass = (cls: string) => all.filter((d) => d.cls === cls).length;
    const cls = [...new Set(all.map((d) => d.cls))].sort((a, b) => ofClass(b) - ofClass(a))[0]!;
    const own = Detector.fromCard(
      { ...card, thresholds: { ...thresholds, typedNmsIou: { [cls]: 0.05 } } },
      { threads: 1 },
    );
    const kept = await own.detect(frame, 960, 544, low);
    expect(kept).toEqual(nonMaxSuppression(all, (c) => (c === cls ? 0.05 : 1)));
    expect(kept.filter((d) => d.cls === cls).length).toBeLessThan(ofClass(cls));
    expect(kept.filter((d) => d.cls !== cls)).toEqual(all.filter((d) => d.cls !== cls));
    await Promise.all([plain.close(), own.close()]);
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
