import { describe, expect, it } from 'vitest';
import type { Box, ProductClass } from '../types.ts';
import type { EvalClass } from './labels.ts';
import {
  averagePrecision,
  countErrorPct,
  cropPrediction,
  evaluateBoxes,
  evaluateCrops,
  matchClass,
} from './metrics.ts';
import type { ImageEval, ScoreThresholds } from './metrics.ts';

const box = (x: number, y: number, width: number, height: number): Box => ({ x, y, width, height });
const gt = (cls: EvalClass, b: Box) => ({ cls, box: b });
const pred = (cls: ProductClass, score: number, b: Box) => ({ cls, score, box: b });
const T: ScoreThresholds = { score: 0.5 };
const A = box(0, 0, 10, 10);
const B = box(20, 0, 10, 10);
const ELSEWHERE = box(50, 50, 10, 10);

function beeRow(images: ImageEval[], thresholds = T) {
  return evaluateBoxes(images, { thresholds }).classes.bee!;
}

describe('average precision (COCO 101-point, IoU 0.5)', () => {
  it('is 1 for perfect predictions', () => {
    // Two TPs: precision [1, 1], recall [0.5, 1]; every recall level has precision 1.
    const row = beeRow([
      { gt: [gt('bee', A), gt('bee', B)], predictions: [pred('bee', 0.9, A), pred('bee', 0.8, B)] },
    ]);
    expect(row).toEqual({ ap50: 1, precision: 1, recall: 1, support: 2 });
  });

  it('halves when a false positive outranks the only true positive', () => {
    // Ranked: FP (0.9), TP (0.8). precision [0, 1/2], recall [0, 1].
    // Envelope [1/2, 1/2]: all 101 recall levels read 1/2, so AP = 0.5.
    const row = beeRow([
      { gt: [gt('bee', A)], predictions: [pred('bee', 0.9, ELSEWHERE), pred('bee', 0.8, A)] },
    ]);
    expect(row.ap50).toBeCloseTo(0.5, 10);
    expect(row.precision).toBeCloseTo(0.5);
    expect(row.recall).toBe(1);
  });

  it('counts only the reached recall levels when a box is missed', () => {
    // One TP of two GT: recall [0.5], precision [1]. Levels 0.00..0.50 (51 of 101) read 1,
    // the rest 0: AP = 51/101.
    const row = beeRow([{ gt: [gt('bee', A), gt('bee', B)], predictions: [pred('bee', 0.9, A)] }]);
    expect(row.ap50).toBeCloseTo(51 / 101, 10);
    expect(row.recall).toBe(0.5);
    expect(row.precision).toBe(1);
  });

  it('treats a duplicate detection as a false positive', () => {
    // GT A, B. Ranked: A (TP), A again (FP: A is taken), B (TP).
    // precision [1, 1/2, 2/3], recall [1/2, 1/2, 1]; envelope [1, 2/3, 2/3].
    // Levels 0..0.5 (51) read 1, levels 0.51..1 (50) read 2/3: AP = (51 + 50 * 2/3) / 101.
    const row = beeRow([
      {
        gt: [gt('bee', A), gt('bee', B)],
        predictions: [
          pred('bee', 0.9, A),
          pred('bee', 0.8, box(0.1, 0, 10, 10)),
          pred('bee', 0.7, B),
        ],
      },
    ]);
    expect(row.ap50).toBeCloseTo((51 + (50 * 2) / 3) / 101, 10);
    expect(row.precision).toBeCloseTo(2 / 3);
    expect(row.recall).toBe(1);
  });

  it('matches at IoU exactly 0.5 and not just below', () => {
    // GT 2x1, prediction 1x1 in its corner: inter 1, union 2, IoU = 0.5 -> TP, AP 1.
    const wide = box(0, 0, 2, 1);
    expect(
      beeRow([{ gt: [gt('bee', wide)], predictions: [pred('bee', 0.9, box(0, 0, 1, 1))] }]).ap50,
    ).toBe(1);
    // 0.99x1: IoU = 0.99 / 2 = 0.495 -> FP, AP 0.
    expect(
      beeRow([{ gt: [gt('bee', wide)], predictions: [pred('bee', 0.9, box(0, 0, 0.99, 1))] }]).ap50,
    ).toBe(0);
  });

  it('matches a prediction to the unmatched GT with the highest IoU', () => {
    // G1 (0,0) and G2 (2,0), both 10x10. P1 (1.5,0): IoU 85/115 with G1, 95/105 with G2 -> G2.
    // P2 (-2,0): IoU 80/120 with G1, 60/140 (< 0.5) with G2 -> G1. Both TP, AP 1. Had P1 taken
    // G1 (first found), P2 would be a false positive.
    const outcome = matchClass([
      {
        gt: [box(0, 0, 10, 10), box(2, 0, 10, 10)],
        predictions: [
          { score: 0.9, box: box(1.5, 0, 10, 10) },
          { score: 0.8, box: box(-2, 0, 10, 10) },
        ],
      },
    ]);
    expect(outcome.tp).toEqual([true, true]);
    expect(averagePrecision(outcome)).toBe(1);
  });

  it('ranks predictions over all images and never matches across images', () => {
    // Image 1: GT A, prediction A 0.6. Image 2: GT B, a prediction at A (0.9, where image 1 has
    // its bee, but image 2 has none: FP) and prediction B 0.3.
    // Ranked: FP 0.9, TP 0.6, TP 0.3: precision [0, 1/2, 2/3], recall [0, 1/2, 1];
    // envelope [2/3, 2/3, 2/3]: AP = 2/3. At threshold 0.5: FP + TP: P 1/2, R 1/2.
    const row = beeRow([
      { gt: [gt('bee', A)], predictions: [pred('bee', 0.6, A)] },
      { gt: [gt('bee', B)], predictions: [pred('bee', 0.9, A), pred('bee', 0.3, B)] },
    ]);
    expect(row.ap50).toBeCloseTo(2 / 3, 10);
    expect(row.precision).toBeCloseTo(0.5);
    expect(row.recall).toBeCloseTo(0.5);
    expect(row.support).toBe(2);
  });

  it('is 0 without ground truth and ignores other classes', () => {
    expect(averagePrecision({ tp: [false], scores: [0.9], support: 0 })).toBe(0);
    const row = beeRow([
      { gt: [gt('bee', A)], predictions: [pred('hornet', 0.9, A), pred('bee', 0.8, A)] },
    ]);
    expect(row.ap50).toBe(1);
  });
});

describe('evaluateBoxes', () => {
  it('matches generic honeybee labels against any honeybee prediction, in a merged "bee" row', () => {
    // Two "Bees" labels, one hornet. Ranked bee-row predictions: pollen 0.8 (TP), drone 0.7 (TP),
    // bee 0.6 (FP): precision [1, 1, 2/3], recall [1/2, 1, 1] -> AP 1.
    // Thresholds 0.65 (pollen 0.3): the bee at 0.6 drops out -> P 1, R 1.
    const images: ImageEval[] = [
      {
        gt: [gt('honeybee', A), gt('honeybee', B), gt('hornet', ELSEWHERE)],
        predictions: [
          pred('pollen', 0.8, A),
          pred('drone', 0.7, B),
          pred('bee', 0.6, box(80, 80, 5, 5)),
          pred('hornet', 0.9, ELSEWHERE),
        ],
      },
    ];
    const result = evaluateBoxes(images, {
      thresholds: { score: 0.65, perClass: { pollen: 0.3 } },
    });
    expect(Object.keys(result.classes).sort()).toEqual(['bee', 'hornet']);
    expect(result.classes.bee).toEqual({ ap50: 1, precision: 1, recall: 1, support: 2 });
    expect(result.classes.hornet).toEqual({ ap50: 1, precision: 1, recall: 1, support: 1 });
    expect(result.notes.join(' ')).toMatch(/generic/);
  });

  it('keeps specific honeybee classes apart when the dataset labels them', () => {
    // A pollen bee predicted as a plain bee is a miss for pollen and a FP for bee.
    const result = evaluateBoxes(
      [
        {
          gt: [gt('pollen', A), gt('bee', B)],
          predictions: [pred('bee', 0.9, A), pred('bee', 0.8, B)],
        },
      ],
      { thresholds: T },
    );
    expect(result.classes.pollen).toEqual({ ap50: 0, precision: 0, recall: 0, support: 1 });
    // bee: FP 0.9 then TP 0.8 -> AP 0.5 as in the hand-computed case above.
    expect(result.classes.bee!.ap50).toBeCloseTo(0.5, 10);
  });

  it('gives null metrics for a class the model cannot detect', () => {
    const result = evaluateBoxes([{ gt: [gt('wasp', A)], predictions: [] }], {
      thresholds: T,
      modelClasses: ['bee', 'pollen', 'drone', 'hornet'],
    });
    expect(result.classes.wasp).toEqual({ ap50: null, precision: null, recall: null, support: 1 });
  });
});

describe('count error', () => {
  it('is the mean of |predicted - true| / true over images with bees, at the threshold', () => {
    // Image 1: 4 true, 3 predicted >= 0.5 (the 0.1 one does not count): 25 %.
    // Image 2: 2 true, 3 predicted (any class counts): 50 %. Image 3: no true box, left out.
    // Mean (25 + 50) / 2 = 37.5 %.
    const p = (cls: ProductClass, score: number) => pred(cls, score, A);
    const images: ImageEval[] = [
      {
        gt: [A, A, A, A].map((b) => gt('bee', b)),
        predictions: [p('bee', 0.9), p('bee', 0.8), p('pollen', 0.7), p('bee', 0.1)],
      },
      {
        gt: [gt('bee', A), gt('hornet', B)],
        predictions: [p('bee', 0.9), p('hornet', 0.9), p('wasp', 0.6)],
      },
      { gt: [], predictions: [p('bee', 0.9)] },
    ];
    expect(countErrorPct(images, T)).toBeCloseTo(37.5, 10);
    expect(evaluateBoxes(images, { thresholds: T }).count_error_pct).toBeCloseTo(37.5, 10);
    expect(countErrorPct([{ gt: [], predictions: [] }], T)).toBeNull();
  });
});

describe('crops', () => {
  it('takes the highest-scoring honeybee detection, pollen or not', () => {
    expect(
      cropPrediction([pred('hornet', 0.95, A), pred('bee', 0.5, A), pred('pollen', 0.6, A)]),
    ).toBe('pollen');
    expect(cropPrediction([pred('drone', 0.7, A)])).toBe('bee');
    expect(cropPrediction([pred('hornet', 0.7, A)])).toBeNull();
  });

  it('scores accuracy and per-class precision / recall, a missing detection being wrong', () => {
    // pollen->pollen (right), pollen->bee, bee->bee (right), bee->none: accuracy 2/4.
    // pollen: predicted once, right once: P 1, R 1/2. bee: predicted twice, right once: P 1/2, R 1/2.
    const result = evaluateCrops([
      { truth: 'pollen', predicted: 'pollen' },
      { truth: 'pollen', predicted: 'bee' },
      { truth: 'bee', predicted: 'bee' },
      { truth: 'bee', predicted: null },
    ]);
    expect(result.accuracy).toBe(0.5);
    expect(result.classes.pollen).toEqual({ precision: 1, recall: 0.5, support: 2 });
    expect(result.classes.bee).toEqual({ precision: 0.5, recall: 0.5, support: 2 });
    expect(result.images).toBe(4);
    expect(result.notes[0]).toMatch(/1 crop/);
  });
});
