import { describe, expect, it } from 'vitest';
import { mixTypes } from './subtype-classifier.ts';

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
