import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelCard } from './model-card.ts';
import { SubtypeClassifier, mixTypes } from './subtype-classifier.ts';
import { recordingSessions, syntheticFrame } from './test-support.ts';
import { viewFrame } from './test-time.ts';

describe('mixTypes', () => {
  const cls = Float32Array.of(0.7, 0.2, 0.1);
  const det = Float32Array.of(0.02, 0.03, 0.15); // raw scores: normalised to 0.1, 0.15, 0.75

  it('is the classifier alone at weight 0', () => {
    expect(Array.from(mixTypes(cls, det, [0, 0, 0]))).toEqual(Array.from(cls));
  });

  it('blends geometrically per class and normalises', () => {
    const even = mixTypes(cls, det, [0.5, 0.5, 0.5]);
    const raw = [0.7 * 0.1, 0.2 * 0.15, 0.1 * 0.75].map(Math.sqrt);
    const sum = raw.reduce((a, b) => a + b, 0);
    raw.forEach((v, j) => expect(even[j]).toBeCloseTo(v / sum, 4));
    // Trusting the detector on the third class only turns the answer to it.
    const third = mixTypes(cls, det, [0, 0, 1]);
    expect(third.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(third[2]! > third[0]!).toBe(true);
  });

  it("gives a class of weight 1 the detector's share; the others divide the rest", () => {
    // Drone decided by the detector (0.75); bee and pollen split 0.25 by the classifier, 0.7 : 0.2.
    const out = mixTypes(cls, det, [0, 0, 1]);
    expect(out[2]).toBeCloseTo(0.75, 5);
    expect(out[0]).toBeCloseTo((0.25 * 0.7) / 0.9, 4);
    expect(out[1]).toBeCloseTo((0.25 * 0.2) / 0.9, 4);
    // Blends below 1 still apply to the rest.
    const half = mixTypes(cls, det, [0.5, 0, 1]);
    const bee = Math.sqrt(0.7 * 0.1);
    expect(half[0]).toBeCloseTo((0.25 * bee) / (bee + 0.2), 4);
    expect(Array.from(mixTypes(cls, det, [1, 1, 1])).map((v) => +v.toFixed(5))).toEqual([
      0.1, 0.15, 0.75,
    ]);
  });

  it('treats a detector with no subtype score as undecided', () => {
    const out = mixTypes(cls, new Float32Array(3), [1, 1, 1]);
    out.forEach((v) => expect(v).toBeCloseTo(1 / 3, 4));
  });
});

describe('SubtypeClassifier crop views (shipped classifier)', () => {
  it("averages the classifier's answers on each crop and its mirror, in one run", async () => {
    const card = await loadModelCard(path.resolve('models/hivesight-detector.card.json'));
    const sc = card.subtypeClassifier!;
    const frame = syntheticFrame(960, 544);
    const boxes = [
      { x1: 50, y1: 44, x2: 110, y2: 76 },
      { x1: 190, y1: 160, x2: 250, y2: 200 },
    ];
    const runs: number[][] = [];
    const classifier = new SubtypeClassifier(sc, 1, recordingSessions(runs));
    const both = await classifier.classify(frame, boxes, ['identity', 'flip_h']);
    expect(runs).toEqual([[4, 3, 48, 48]]);
    const asIs = await classifier.classify(frame, boxes);
    const mirrored = await classifier.classify(
      viewFrame(frame, 'flip_h'),
      boxes.map((b) => ({ ...b, x1: 960 - b.x2, x2: 960 - b.x1 })),
    );
    expect(both.length).toBe(boxes.length * sc.columns);
    both.forEach((v, i) => expect(v).toBeCloseTo((asIs[i]! + mirrored[i]!) / 2, 4));
    // The two views disagree somewhere, or the test would not tell the mean from either one.
    expect(Math.max(...Array.from(asIs, (v, i) => Math.abs(v - mirrored[i]!)))).toBeGreaterThan(
      1e-4,
    );
    await classifier.close();
  });
});
