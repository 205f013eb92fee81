import { describe, expect, it } from 'vitest';
import { makeDetection } from './detection.ts';
import { iou, nonMaxSuppression } from './nms.ts';

const det = (cls: 'bee' | 'hornet', score: number, x: number, y = 0, s = 10) =>
  makeDetection(cls, score, { x, y, width: s, height: s });

describe('iou', () => {
  it('is intersection over union, 0 when apart', () => {
    expect(
      iou({ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: 0, width: 10, height: 10 }),
    ).toBeCloseTo(50 / 150);
    expect(iou({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 10, height: 10 })).toBe(
      0,
    );
  });
});

describe('nonMaxSuppression', () => {
  it('keeps the best of overlapping boxes of a class, sorted by score', () => {
    const kept = nonMaxSuppression(
      [det('bee', 0.6, 1), det('bee', 0.9, 0), det('bee', 0.7, 50)],
      0.5,
    );
    expect(kept.map((d) => d.score)).toEqual([0.9, 0.7]);
  });

  it('suppresses per class only', () => {
    const kept = nonMaxSuppression([det('bee', 0.9, 0), det('hornet', 0.8, 0)], 0.5);
    expect(kept.map((d) => d.cls)).toEqual(['bee', 'hornet']);
  });

  it('keeps boxes overlapping at or below the threshold', () => {
    // IoU of x=0 and x=5 (10 px boxes) is 1/3.
    expect(nonMaxSuppression([det('bee', 0.9, 0), det('bee', 0.8, 5)], 0.4)).toHaveLength(2);
    expect(nonMaxSuppression([det('bee', 0.9, 0), det('bee', 0.8, 5)], 0.3)).toHaveLength(1);
  });

  it("takes each class's own overlap when given one per class", () => {
    const boxes = [
      det('bee', 0.9, 0),
      det('bee', 0.8, 5),
      det('hornet', 0.9, 0),
      det('hornet', 0.8, 5),
    ];
    const kept = nonMaxSuppression(boxes, (cls) => (cls === 'hornet' ? 0.3 : 1));
    expect(kept.map((d) => [d.cls, d.score])).toEqual([
      ['bee', 0.9],
      ['hornet', 0.9],
      ['bee', 0.8],
    ]);
  });
});

describe('makeDetection', () => {
  it('rejects invalid values', () => {
    expect(() => makeDetection('bee', 1.2, { x: 0, y: 0, width: 1, height: 1 })).toThrow(/score/);
    expect(() => makeDetection('bee', 0.5, { x: NaN, y: 0, width: 1, height: 1 })).toThrow(
      /finite/,
    );
    expect(() => makeDetection('bee', 0.5, { x: 0, y: 0, width: 0, height: 1 })).toThrow(
      /positive/,
    );
    expect(() => makeDetection('moth' as 'bee', 0.5, { x: 0, y: 0, width: 1, height: 1 })).toThrow(
      /class/,
    );
  });
});
