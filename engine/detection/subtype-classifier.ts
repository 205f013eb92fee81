/**
 * The subtype classifier a card may name (`subtype_classifier`): a small model that looks at a
 * crop around each honeybee the detector found and says worker, pollen or drone.
 */
import type { RawFrame } from '../types.ts';
import { CropModel } from './crop-model.ts';
import type { FrameBox } from './crop-model.ts';
import type { SubtypeClassifierCard } from './model-card.ts';
import type { SessionFactory } from './session.ts';
import type { View } from './test-time.ts';

/**
 * Blends the classifier's probabilities with the detector's own subtype scores (any scale; they
 * are normalised). A class of weight 1 is the detector's to decide: it gets the detector's share
 * outright. The other classes divide what is left by p[j] ~ classifier[j]^(1 - w[j]) x
 * detector[j]^w[j]. The detector sees the bee's size next to its neighbours, which a crop
 * scaled to the box cannot (drones are the large ones); the classifier sees the bee far better
 * (pollen). w = 0 everywhere is the classifier alone.
 */
export function mixTypes(
  classifier: Float32Array,
  detector: Float32Array,
  weights: readonly number[],
): Float32Array {
  const k = classifier.length;
  const out = new Float32Array(k);
  if (weights.every((w) => w <= 0)) {
    out.set(classifier);
    return out;
  }
  let detSum = 0;
  for (let j = 0; j < k; j++) detSum += detector[j]!;
  const own = (j: number) => (detSum > 0 ? detector[j]! / detSum : 1 / k);
  let decided = 0;
  for (let j = 0; j < k; j++) if (weights[j]! >= 1) decided += own(j);
  let total = 0;
  for (let j = 0; j < k; j++) {
    const w = weights[j]!;
    if (w >= 1) continue;
    const v = Math.exp((1 - w) * Math.log(classifier[j]! + 1e-6) + w * Math.log(own(j) + 1e-6));
    out[j] = v;
    total += v;
  }
  const rest = Math.max(0, 1 - decided);
  for (let j = 0; j < k; j++) out[j] = weights[j]! >= 1 ? own(j) : (out[j]! / total) * rest;
  return out;
}

export class SubtypeClassifier {
  private readonly model: CropModel;

  constructor(
    readonly card: SubtypeClassifierCard,
    threads: number,
    createSession: SessionFactory,
  ) {
    this.model = new CropModel(card, 'subtype classifier', threads, createSession);
  }

  /**
   * The model's output, `columns` values per box, in box order: the mean over the crop's `views`
   * (`identity` first). Calls must not overlap.
   */
  async classify(
    frame: RawFrame,
    boxes: readonly FrameBox[],
    views: readonly View[] = ['identity'],
  ): Promise<Float32Array> {
    const { columns } = this.card;
    const rows = await this.model.run(frame, boxes, columns, views);
    if (views.length === 1) return rows;
    const out = new Float32Array(boxes.length * columns);
    for (let n = 0; n < boxes.length; n++) {
      for (let v = 0; v < views.length; v++) {
        const row = (n * views.length + v) * columns;
        for (let c = 0; c < columns; c++) out[n * columns + c]! += rows[row + c]! / views.length;
      }
    }
    return out;
  }

  load(): Promise<void> {
    return this.model.load();
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
