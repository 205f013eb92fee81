import { describe, expect, it } from 'vitest';
import type { Box, ProductClass } from '../types.ts';
import { boxErrors, countBias, cropErrors } from './errors.ts';
import type { EvalClass } from './labels.ts';
import { evaluateBoxes } from './metrics.ts';
import type { ImageEval, ScoreThresholds } from './metrics.ts';

const box = (x: number, y: number, width: number, height: number): Box => ({ x, y, width, height });
const gt = (cls: EvalClass, b: Box) => ({ cls, box: b });
const pred = (cls: ProductClass, score: number, b: Box) => ({ cls, score, box: b });
const T: ScoreThresholds = { score: 0.5 };
const ALL: ProductClass[] = ['bee', 'pollen', 'drone', 'hornet'];

// One frame with one label or detection of each kind, boxes 10 px square.
const frame: ImageEval = {
  gt: [
    gt('bee', box(0, 0, 10, 10)), // found, and a second detection on it
    gt('drone', box(20, 0, 10, 10)), // detected as a worker
    gt('bee', box(40, 0, 10, 10)), // two labels, one box between them
    gt('bee', box(42, 0, 10, 10)),
    gt('bee', box(60, 0, 10, 10)), // the right box under the threshold
    gt('bee', box(80, 0, 10, 10)), // a box half off it (IoU 1/3)
    gt('bee', box(0, 50, 10, 10)), // nothing near
  ],
  predictions: [
    pred('bee', 0.9, box(0, 0, 10, 10)),
    pred('bee', 0.7, box(0.5, 0, 10, 10)),
    pred('bee', 0.8, box(20, 0, 10, 10)),
    pred('bee', 0.6, box(41, 0, 10, 10)),
    pred('bee', 0.1, box(60, 0, 10, 10)),
    pred('bee', 0.9, box(80, 5, 10, 10)),
    pred('bee', 0.9, box(50, 80, 10, 10)), // on nothing
  ],
};

describe('boxErrors', () => {
  const errors = boxErrors([frame], { thresholds: T, modelClasses: ALL });

  it('puts each label in one kind, the found ones being recall', () => {
    expect(errors.classes.bee!.labels).toEqual({
      support: 6,
      found: 2,
      typed: {},
      shared: 1,
      scored_low: 1,
      poor_box: 1,
      missed: 1,
    });
    expect(errors.classes.drone!.labels).toMatchObject({ support: 1, found: 0, typed: { bee: 1 } });
    const recall = evaluateBoxes([frame], { thresholds: T }).classes.bee!.recall!;
    expect(errors.classes.bee!.labels.found).toBe(recall * 6);
  });

  it('puts each detection at the threshold in one kind', () => {
    expect(errors.classes.bee!.detections).toEqual({
      total: 6,
      right: 2,
      on_other: { drone: 1 },
      duplicate: 1,
      poor_box: 1,
      background: 1,
    });
    expect(errors.classes.drone!.detections.total).toBe(0);
  });

  it('follows per-class thresholds: a lower one finds the low-scored bee', () => {
    const lower = boxErrors([frame], {
      thresholds: { score: 0.5, perClass: { bee: 0.05 } },
      modelClasses: ALL,
    });
    expect(lower.classes.bee!.labels).toMatchObject({ found: 3, scored_low: 0 });
  });

  it('calls a generic honeybee label detected as a hornet "as another class"', () => {
    const generic = boxErrors(
      [
        {
          gt: [gt('honeybee', box(0, 0, 10, 10))],
          predictions: [pred('hornet', 0.9, box(0, 0, 10, 10))],
        },
      ],
      { thresholds: T, modelClasses: ALL },
    );
    expect(generic.classes.bee!.labels.typed).toEqual({ hornet: 1 });
  });

  it('leaves out classes the model cannot detect', () => {
    const errors = boxErrors([frame], { thresholds: T, modelClasses: ['hornet'] });
    expect(errors.classes).toEqual({});
  });
});

describe('the worst images', () => {
  // A frame whose bees were left unlabelled: one label, three detections on nothing.
  const unlabelled: ImageEval = {
    gt: [gt('drone', box(0, 0, 10, 10))],
    predictions: [
      pred('drone', 0.9, box(0, 0, 10, 10)),
      ...[30, 50, 70].map((x) => pred('bee', 0.8, box(x, 0, 10, 10))),
    ],
  };
  const clean: ImageEval = {
    gt: [gt('bee', box(0, 0, 10, 10))],
    predictions: [pred('bee', 0.9, box(0, 0, 10, 10))],
  };

  it('lists images by unmatched labels and detections on nothing, whatever their class', () => {
    const { worst_images } = boxErrors([clean, frame, unlabelled], {
      thresholds: T,
      modelClasses: ALL,
      names: ['clean.jpg', 'frame.jpg', 'unlabelled.jpg'],
    });
    // frame: the label under the threshold, the half-covered one and the lone one have no
    // match at 0.5 (the drone's worker box matches it whatever its class); one on nothing.
    expect(worst_images).toEqual([
      { image: 'frame.jpg', labels: 7, detected: 6, unmatched: 3, on_nothing: 1 },
      { image: 'unlabelled.jpg', labels: 1, detected: 4, unmatched: 0, on_nothing: 3 },
    ]);
  });

  it('keeps the five worst', () => {
    const many = Array.from({ length: 8 }, () => unlabelled);
    const { worst_images } = boxErrors(many, { thresholds: T, modelClasses: ALL });
    expect(worst_images).toHaveLength(5);
    expect(worst_images[0]!.image).toBe('image 1');
  });
});

describe('countBias', () => {
  it('says which way the count errs, image by image', () => {
    const over: ImageEval = {
      gt: [gt('bee', box(0, 0, 10, 10))],
      predictions: [pred('bee', 0.9, box(0, 0, 10, 10)), pred('bee', 0.9, box(30, 0, 10, 10))],
    };
    const bias = countBias([frame, over, { gt: [], predictions: [] }], T);
    // frame: 6 shown for 7 labels (-1/7); over: 2 for 1 (+100 %); the empty image is left out.
    expect(bias).toMatchObject({ over: 1, under: 1, exact: 0 });
    expect(bias.mean_signed_pct).toBeCloseTo((-100 / 7 + 100) / 2);
  });
});

describe('cropErrors', () => {
  it('is the confusion of truth against prediction, no honeybee as its own column', () => {
    const { confusion } = cropErrors([
      { truth: 'pollen', predicted: 'pollen' },
      { truth: 'pollen', predicted: 'bee' },
      { truth: 'bee', predicted: null },
      { truth: 'bee', predicted: 'bee' },
    ]);
    expect(confusion).toEqual({
      bee: { bee: 1, pollen: 0, none: 1 },
      pollen: { bee: 1, pollen: 1, none: 0 },
    });
  });
});
