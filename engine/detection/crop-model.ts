/**
 * A second-stage model that looks at one crop per detection: the subtype classifier and the box
 * refiner a card may name. Crops are cut from the frame the detector saw, exactly as the training
 * code cuts them (training/beetype_data.py `sample_rect`), so a model sees at run time what it
 * saw in training.
 */
import * as ort from 'onnxruntime-node';
import { ModelError } from '../errors.ts';
import type { RawFrame } from '../types.ts';
import type { CropModelCard, CropShape } from './model-card.ts';
import { viewAxes } from './test-time.ts';
import type { View } from './test-time.ts';
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
 * How a crop is cut around a box: `square`, a square of `context` x the box's longer side (the
 * subtype classifier's: the bee keeps its shape); `box`, `context` x each side of the box,
 * stretched to a square (the box refiner's: the box is always the middle of the crop).
 */

/** Extent of the crop taken around `box`, in frame pixels: [width, height]. */
export function cropExtent(box: FrameBox, context: number, shape: CropShape): [number, number] {
  const w = box.x2 - box.x1;
  const h = box.y2 - box.y1;
  if (shape === 'box') return [context * w, context * h];
  const side = context * Math.max(w, h);
  return [side, side];
}

/**
 * Writes a `size` x `size` crop of `frame` into `out` (NCHW planes at `offset`, `size * size`
 * values per channel) as raw 0-255 floats: the crop `cropExtent` gives, centred on the box,
 * sampled bilinearly at step centres, coordinates clamped to the frame.
 */
export function sampleCrop(
  frame: RawFrame,
  box: FrameBox,
  size: number,
  context: number,
  shape: CropShape,
  out: Float32Array,
  offset: number,
): void {
  const { width: w, height: h, data } = frame;
  const [sideX, sideY] = cropExtent(box, context, shape);
  const cx = (box.x1 + box.x2) / 2;
  const cy = (box.y1 + box.y2) / 2;
  const stepX = sideX / size;
  const stepY = sideY / size;
  const plane = size * size;
  const x0s = new Int32Array(size);
  const x1s = new Int32Array(size);
  const fxs = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const x = Math.min(w - 1, Math.max(0, cx - sideX / 2 + (i + 0.5) * stepX - 0.5));
    const x0 = Math.floor(x);
    x0s[i] = x0;
    x1s[i] = Math.min(x0 + 1, w - 1);
    fxs[i] = x - x0;
  }
  for (let j = 0; j < size; j++) {
    const y = Math.min(h - 1, Math.max(0, cy - sideY / 2 + (j + 0.5) * stepY - 0.5));
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
 * Writes crop `from` of `input` as `view` shows it into crop `to` (each `3 x size x size`). A
 * mirrored or turned crop is exactly the crop `sampleCrop` cuts from the frame so viewed around
 * the box so viewed: the sample grid is symmetric about the box's centre and its two axes.
 */
export function viewCrop(
  input: Float32Array,
  from: number,
  to: number,
  size: number,
  view: View,
): void {
  const { t, h: flipX, v: flipY } = viewAxes(view);
  const plane = size * size;
  for (let ch = 0; ch < 3; ch++) {
    const src = from + ch * plane;
    const dst = to + ch * plane;
    for (let j = 0; j < size; j++) {
      const sj = flipY ? size - 1 - j : j;
      for (let i = 0; i < size; i++) {
        const si = flipX ? size - 1 - i : i;
        input[dst + j * size + i] = input[src + (t ? si * size + sj : sj * size + si)]!;
      }
    }
  }
}

/** Runs a crop model: one session, loaded lazily once; one output row per box and view. */
export class CropModel {
  private readonly lazy = new LazySession(() => this.openSession());
  private buffer = new Float32Array(0);

  constructor(
    readonly card: CropModelCard,
    /** What the model is, for error messages ("subtype classifier", "box refiner"). */
    private readonly role: string,
    private readonly threads: number,
    private readonly createSession: SessionFactory,
  ) {}

  /**
   * The model's output, `columns` values per crop: box by box, and for each box one row per view
   * (`views` starts with `identity`). Calls must not overlap.
   */
  async run(
    frame: RawFrame,
    boxes: readonly FrameBox[],
    columns: number,
    views: readonly View[] = ['identity'],
  ): Promise<Float32Array> {
    if (boxes.length === 0) return new Float32Array(0);
    const session = await this.lazy.get();
    const { size, context, crop, channels } = this.card.input;
    const per = 3 * size * size;
    const count = boxes.length * views.length;
    if (this.buffer.length < count * per) this.buffer = new Float32Array(count * per);
    const input = this.buffer.subarray(0, count * per);
    boxes.forEach((box, n) => {
      const at = n * views.length * per;
      sampleCrop(frame, box, size, context, crop, input, at);
      for (let v = 1; v < views.length; v++) viewCrop(input, at, at + v * per, size, views[v]!);
    });
    this.normalise(input, count);
    if (channels === 'BGR') swapRedBlue(input, count, size * size);
    let outputs: Record<string, ort.OnnxValue>;
    try {
      outputs = await session.run({
        [this.card.input.name]: new ort.Tensor('float32', input, [count, 3, size, size]),
      });
    } catch (error) {
      throw new ModelError(
        `The ${this.role} failed on ${count} crops: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const output = outputs[this.card.output.name];
    if (!output || output.type !== 'float32' || output.data.length !== count * columns) {
      throw new ModelError(
        `The ${this.role} returned no float32 [${count}, ${columns}] output "${this.card.output.name}".`,
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
        `Cannot load the ${this.role} ${this.card.modelPath}: ${(error as Error).message}`,
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
        `The ${this.role} ${this.card.modelPath} has no ${missing.join(' or ')}.`,
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
