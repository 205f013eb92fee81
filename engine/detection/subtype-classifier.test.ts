import { describe, expect, it } from 'vitest';
import type { RawFrame } from '../types.ts';
import { mixTypes, sampleSquare } from './subtype-classifier.ts';

/** R = 3x, G = 5y, B = 7: bilinear sampling of a linear ramp is exact, so samples are known. */
function ramp(width: number, height: number): RawFrame {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      data[o] = 3 * x;
      data[o + 1] = 5 * y;
      data[o + 2] = 7;
    }
  }
  return { index: 0, timeS: 0, width, height, data };
}

describe('sampleSquare', () => {
  it('samples a square of context x the longer side at step centres', () => {
    const out = new Float32Array(2 + 3 * 36);
    // Box 8x4 centred on (20, 10): side 12, step 2, samples at x = 14.5, 16.5, ... 24.5.
    sampleSquare(ramp(64, 32), { x1: 16, y1: 8, x2: 24, y2: 12 }, 6, 1.5, out, 2);
    const plane = 36;
    const at = (ch: number, row: number, col: number) => out[2 + ch * plane + row * 6 + col]!;
    expect(out[0]).toBe(0);
    for (let col = 0; col < 6; col++) expect(at(0, 3, col)).toBeCloseTo(3 * (14.5 + 2 * col), 4);
    for (let row = 0; row < 6; row++) expect(at(1, row, 2)).toBeCloseTo(5 * (4.5 + 2 * row), 4);
    expect(at(2, 5, 5)).toBeCloseTo(7, 5);
  });

  it('clamps samples that fall outside the frame to its edge', () => {
    const out = new Float32Array(3 * 16);
    sampleSquare(ramp(10, 10), { x1: 8, y1: -2, x2: 12, y2: 2 }, 4, 2, out, 0);
    // Side 8 centred on (10, 0): x from 6.5 to 12.5 (clamped to 9), y from -3.5 to 2.5.
    expect(Array.from(out.subarray(0, 4))).toEqual([19.5, 25.5, 27, 27]);
    expect(Array.from(out.subarray(16, 32)).map((v) => Math.round(v))).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 13, 13, 13, 13,
    ]);
  });
});

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

  it('treats a detector with no subtype score as undecided', () => {
    const out = mixTypes(cls, new Float32Array(3), [1, 1, 1]);
    out.forEach((v) => expect(v).toBeCloseTo(1 / 3, 4));
  });
});
