/**
 * The subtype classifier a card may name (`subtype_classifier`): a small model that looks at a
 * crop around each honeybee the detector found and says worker, pollen or drone. Crops are cut
 * from the frame the detector saw, exactly as training/beetype_data.py cuts them, so the model
 * sees at run time what it saw in training.
 */
import * as ort from 'onnxruntime-node';
import { ModelError } from '../errors.ts';
import type { RawFrame } from '../types.ts';
import type { SubtypeClassifierCard } from './model-card.ts';
import { LazySession, sessionOptions } from './session.ts';
import type { DetectorSession, SessionFactory } from './session.ts';

/** A box in frame pixels. */
export interface FrameBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * Writes a `size` x `size` crop of `frame` into `out` (NCHW planes at `offset`, `size * size`
 * values per channel) as raw 0-255 floats: the square of side `context` x the box's longer side,
 * centred on the box, sampled bilinearly at step centres, coordinates clamped to the frame.
 */
export function sampleSquare(
  frame: RawFrame,
  box: FrameBox,
  size: number,
  context: number,
  out: Float32Array,
  offset: number,
): void {
  const { width: w, height: h, data } = frame;
  const side = context * Math.max(box.x2 - box.x1, box.y2 - box.y1);
  const cx = (box.x1 + box.x2) / 2;
  const cy = (box.y1 + box.y2) / 2;
  const step = side / size;
  const plane = size * size;
  const x0s = new Int32Array(size);
  const x1s = new Int32Array(size);
  const fxs = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const x = Math.min(w - 1, Math.max(0, cx - side / 2 + (i + 0.5) * step - 0.5));
    const x0 = Math.floor(x);
    x0s[i] = x0;
    x1s[i] = Math.min(x0 + 1, w - 1);
    fxs[i] = x - x0;
  }
  for (let j = 0; j < size; j++) {
    const y = Math.min(h - 1, Math.max(0, cy - side / 2 + (j + 0.5) * step - 0.5));
    const y0 = Math.floor(y);
    const fy = y - y0;
    const row0 = y0 * w * 3;
    const row1 = Math.min(y0 + 1, h - 1) * w * 3;
    for (let i = 0; i < size; i++) {
      const a = row0 + x0s[i]! * 3;
      const b = row0 + x1s[i]! * 3;
      const c = row1 + x0s[i]! * 3;
      const d = row1 + x1s[i]! * 3;
      const fx = fxs[i]!;
      const o = offset + j * size + i;
      for (let ch = 0; ch < 3; ch++) {
        const top = data[a + ch]! * (1 - fx) + data[b + ch]! * fx;
        const bottom = data[c + ch]! * (1 - fx) + data[d + ch]! * fx;
        out[o + ch * plane] = top * (1 - fy) + bottom * fy;
      }
    }
  }
}

/**
 * Blends the classifier's probabilities with the detector's own subtype scores (any scale; they
 * are normalised): p[j] ~ classifier[j]^(1 - w[j]) x detector[j]^w[j]. The detector sees the
 * bee's size next to its neighbours, which a crop scaled to the box cannot (drones are the large
 * ones); the classifier sees the bee far better (pollen). w = 0 is the classifier alone.
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
  let total = 0;
  for (let j = 0; j < k; j++) {
    const own = detSum > 0 ? detector[j]! / detSum : 1 / k;
    const w = weights[j]!;
    const v = Math.exp((1 - w) * Math.log(classifier[j]! + 1e-6) + w * Math.log(own + 1e-6));
    out[j] = v;
    total += v;
  }
  for (let j = 0; j < k; j++) out[j] = out[j]! / total;
  return out;
}

export class SubtypeClassifier {
  private readonly lazy = new LazySession(() => this.openSession());
  private buffer = new Float32Array(0);

  constructor(
    readonly card: SubtypeClassifierCard,
    private readonly threads: number,
    private readonly createSession: SessionFactory,
  ) {}

  /** The model's output, `columns` values per box, in box order. Calls must not overlap. */
  async classify(frame: RawFrame, boxes: readonly FrameBox[]): Promise<Float32Array> {
    const k = this.card.columns;
    if (boxes.length === 0) return new Float32Array(0);
    const session = await this.lazy.get();
    const { size, context, channels } = this.card.input;
    const per = 3 * size * size;
    if (this.buffer.length < boxes.length * per) this.buffer = new Float32Array(boxes.length * per);
    const input = this.buffer.subarray(0, boxes.length * per);
    boxes.forEach((box, n) => sampleSquare(frame, box, size, context, input, n * per));
    this.normalise(input, boxes.length);
    if (channels === 'BGR') swapRedBlue(input, boxes.length, size * size);
    let outputs: Record<string, ort.OnnxValue>;
    try {
      outputs = await session.run({
        [this.card.input.name]: new ort.Tensor('float32', input, [boxes.length, 3, size, size]),
      });
    } catch (error) {
      throw new ModelError(
        `The subtype classifier failed on ${boxes.length} crops: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const output = outputs[this.card.output.name];
    if (!output || output.type !== 'float32' || output.data.length !== boxes.length * k) {
      throw new ModelError(
        `The subtype classifier returned no float32 [${boxes.length}, ${k}] output "${this.card.output.name}".`,
      );
    }
    return output.data as Float32Array;
  }

  async load(): Promise<void> {
    await this.lazy.get();
  }

  async close(): Promise<void> {
    this.buffer = new Float32Array(0);
    await this.lazy.release();
  }

  private normalise(input: Float32Array, count: number): void {
    const { scale, mean, std } = this.card.normalization;
    const plane = this.card.input.size * this.card.input.size;
    for (let n = 0; n < count; n++) {
      for (let ch = 0; ch < 3; ch++) {
        const start = (n * 3 + ch) * plane;
        const m = mean[ch]!;
        const s = std[ch]!;
        for (let i = start; i < start + plane; i++) input[i] = (input[i]! * scale - m) / s;
      }
    }
  }

  private async openSession(): Promise<DetectorSession> {
    let session: DetectorSession;
    try {
      session = await this.createSession(this.card.modelPath, sessionOptions(this.threads));
    } catch (error) {
      throw new ModelError(
        `Cannot load the subtype classifier ${this.card.modelPath}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const missing = [
      session.inputNames.includes(this.card.input.name) ? '' : `input "${this.card.input.name}"`,
      session.outputNames.includes(this.card.output.name)
        ? ''
        : `output "${this.card.output.name}"`,
    ].filter(Boolean);
    if (missing.length > 0) {
      await session.release().catch(() => undefined);
      throw new ModelError(
        `The subtype classifier ${this.card.modelPath} has no ${missing.join(' or ')}.`,
      );
    }
    return session;
  }
}

function swapRedBlue(input: Float32Array, count: number, plane: number): void {
  for (let n = 0; n < count; n++) {
    const r = n * 3 * plane;
    const b = r + 2 * plane;
    for (let i = 0; i < plane; i++) {
      const t = input[r + i]!;
      input[r + i] = input[b + i]!;
      input[b + i] = t;
    }
  }
}
