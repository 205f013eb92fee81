/**
 * The detector: one ONNX model described by its card. The onnxruntime session is created lazily,
 * once, on the first `detect` (or `load`). Frames arrive already scaled to `inputSizeFor(...)` by
 * ffmpeg, so `detect` only normalises, runs, decodes and maps boxes back to source pixels.
 */
import * as ort from 'onnxruntime-node';
import { ModelError } from '../errors.ts';
import type { Box, Detection, ModelIdentity, ProductClass, RawFrame } from '../types.ts';
import { adapterFor } from './adapters/index.ts';
import type { Candidates, OutputAdapter } from './adapters/index.ts';
import { makeDetection } from './detection.ts';
import { availableClasses, loadModelCard } from './model-card.ts';
import type { ModelCard } from './model-card.ts';
import { nonMaxSuppression } from './nms.ts';
import { zoomFor } from './zoom.ts';
import { checkHornetSize } from './hornet-size.ts';
import { defaultSessionFactory, LazySession, sessionOptions } from './session.ts';
import type { DetectorSession, SessionFactory } from './session.ts';
import { fillTensor, makeNormaliser } from './preprocess.ts';
import type { Normaliser } from './preprocess.ts';

export type { DetectorSession, SessionFactory } from './session.ts';

export interface DetectorOptions {
  /** onnxruntime intra-op threads (default 2). */
  threads?: number;
  /** Creates the onnxruntime session; default `ort.InferenceSession.create`. */
  createSession?: SessionFactory;
}

export interface DetectOptions {
  /** Replaces every class's score threshold (eval uses a low one for the AP curve). */
  scoreThreshold?: number;
  /**
   * Per-class score thresholds laid over the card's (a location's calibration); `scoreThreshold`,
   * when also given, wins.
   */
  thresholds?: Partial<Record<ProductClass, number>>;
}

export const DEFAULT_THREADS = 2;
/** Most candidates passed to NMS per frame, best first (bounds NMS cost at low thresholds). */
export const MAX_CANDIDATES = 3000;

export class Detector {
  readonly identity: ModelIdentity;
  private readonly adapter: OutputAdapter;
  private readonly norm: Normaliser;
  private readonly threads: number;
  private readonly createSession: SessionFactory;
  private readonly lazy = new LazySession(() => this.openSession());
  private buffers = new Map<string, Float32Array>();
  /** Runs detections one at a time: the input buffers are reused. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly card: ModelCard,
    options: DetectorOptions,
  ) {
    const adapter = adapterFor(card.output.format);
    if (!adapter) throw new ModelError(`No output adapter for format "${card.output.format}".`);
    this.adapter = adapter;
    this.norm = makeNormaliser(card);
    const threads = options.threads ?? DEFAULT_THREADS;
    if (!Number.isInteger(threads) || threads < 1) {
      throw new RangeError(`threads must be a positive integer, got ${threads}`);
    }
    this.threads = threads;
    this.createSession = options.createSession ?? defaultSessionFactory;
    this.identity = {
      name: card.name,
      version: card.version,
      classes: availableClasses(card),
      inputWidth: card.input.width,
      inputHeight: card.input.height,
      ...(card.thresholds.alert ? { alertScores: card.thresholds.alert } : {}),
    };
  }

  /** Reads and validates the card (a `.card.json`, or an `.onnx` with its card beside it). */
  static async open(cardOrOnnxPath: string, options: DetectorOptions = {}): Promise<Detector> {
    return new Detector(await loadModelCard(cardOrOnnxPath), options);
  }

  /** A detector for an already loaded card. */
  static fromCard(card: ModelCard, options: DetectorOptions = {}): Detector {
    return new Detector(card, options);
  }

  /**
   * The frame size to decode a `sourceWidth` x `sourceHeight` source at: scaled to fit inside the
   * card's nominal size times `zoom` (auto-zoom, `zoomFor`; default 1), aspect preserved, enlarged
   * no more than the card's `max_upscale`. For a dynamic model both sides are rounded to
   * multiples of the stride; for a fixed one the frame is letterboxed into the nominal size by
   * `detect` (and `zoom` must be 1).
   */
  inputSizeFor(
    sourceWidth: number,
    sourceHeight: number,
    zoom = 1,
  ): { width: number; height: number } {
    if (!(sourceWidth > 0 && sourceHeight > 0 && Number.isFinite(sourceWidth * sourceHeight))) {
      throw new RangeError(`Invalid source size ${sourceWidth}x${sourceHeight}`);
    }
    const { width: W, height: H, dynamic, stride, maxUpscale } = this.card.input;
    if (!(zoom > 0 && Number.isFinite(zoom)) || (!dynamic && zoom !== 1)) {
      throw new RangeError(`Invalid zoom ${zoom} for a ${dynamic ? 'dynamic' : 'fixed'} input`);
    }
    const scale = Math.min(maxUpscale, (zoom * W) / sourceWidth, (zoom * H) / sourceHeight);
    if (dynamic) {
      const round = (n: number) => Math.max(stride, Math.round(n / stride) * stride);
      const side = (src: number, max: number) => Math.min(round(max * zoom), round(src * scale));
      return { width: side(sourceWidth, W), height: side(sourceHeight, H) };
    }
    return {
      width: Math.min(W, Math.max(1, Math.round(sourceWidth * scale))),
      height: Math.min(H, Math.max(1, Math.round(sourceHeight * scale))),
    };
  }

  /**
   * The zoom to decode a source at again, judged from `detections` found on a `frameWidth` px
   * wide frame of it (`zoom.ts`): 1 where its honeybees are near the size the detector learnt,
   * undefined where too few were found to judge (or the card asks for no auto-zoom).
   */
  zoomFor(
    detections: readonly Detection[],
    frameWidth: number,
    sourceWidth: number,
    sourceHeight: number,
  ): number | undefined {
    const card = this.card.input.autoZoom;
    if (!card) return undefined;
    const { score, perClass } = this.scoreThresholds();
    const zoom = zoomFor(
      detections,
      frameWidth / sourceWidth,
      card,
      (cls) => perClass[cls] ?? score,
    );
    if (zoom === undefined || zoom === 1) return zoom;
    // A zoom the input cannot show (a small picture is never enlarged beyond max_upscale) would
    // decode and detect the same pixels again.
    const zoomed = this.inputSizeFor(sourceWidth, sourceHeight, zoom);
    const usual = this.inputSizeFor(sourceWidth, sourceHeight, 1);
    return zoomed.width === usual.width && zoomed.height === usual.height ? 1 : zoom;
  }

  /**
   * Creates the session now (it is otherwise created by the first `detect`), so a caller can have
   * it made while ffprobe and ffmpeg start instead of after the first frame.
   */
  async load(): Promise<void> {
    await this.lazy.get();
  }

  async close(): Promise<void> {
    this.buffers.clear();
    await this.lazy.release();
  }

  async detect(
    frame: RawFrame,
    sourceWidth: number,
    sourceHeight: number,
    options: DetectOptions = {},
  ): Promise<Detection[]> {
    checkFrame(frame);
    const { width: w, height: h } = frame;
    if (!(sourceWidth > 0 && sourceHeight > 0)) {
      throw new RangeError(`Invalid source size ${sourceWidth}x${sourceHeight}`);
    }
    const { tw, th } = this.paddedSize(w, h);
    const session = await this.lazy.get();
    const run = this.queue.then(async () => {
      const candidates = await this.candidates(session, frame, tw, th, this.thresholds(options));
      const found = this.toDetections(candidates, w, h, sourceWidth / w, sourceHeight / h);
      return this.checkHornets(this.suppressTyped(found));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Suppresses again the classes with an overlap of their own (`thresholds.typed_nms_iou`): two
   * boxes on the parts of one large insect (a drone) can overlap less than `nms_iou`, and on
   * moving footage each would become a track.
   */
  /** Hornets no larger than the honeybees beside them, typed as the honeybees they are. */
  private checkHornets(detections: Detection[]): Detection[] {
    const check = this.card.thresholds.hornetSize;
    if (!check) return detections;
    const { score, perClass } = this.scoreThresholds();
    return checkHornetSize(
      detections,
      check,
      (cls) => perClass[cls] ?? score,
      this.card.thresholds.nmsIou,
    );
  }

  private suppressTyped(detections: Detection[]): Detection[] {
    const own = this.card.thresholds.typedNmsIou;
    return own ? nonMaxSuppression(detections, (cls) => own[cls] ?? 1) : detections;
  }

  /** Runs the model on `frame` padded to `tw` x `th` and decodes its output. */
  private async candidates(
    session: DetectorSession,
    frame: RawFrame,
    tw: number,
    th: number,
    thresholds: Float32Array,
  ): Promise<Candidates> {
    const input = this.bufferFor(tw, th);
    fillTensor(frame, input, tw, th, this.norm);
    const tensor = new ort.Tensor('float32', input, [1, 3, th, tw]);
    let outputs: Record<string, ort.OnnxValue>;
    try {
      outputs = await session.run({ [this.card.input.name]: tensor });
    } catch (error) {
      throw new ModelError(`The model failed on a ${tw}x${th} input: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const output = outputs[this.card.output.name];
    if (!output || output.type !== 'float32') {
      throw new ModelError(`The model returned no float32 output "${this.card.output.name}".`);
    }
    return this.adapter.decode(
      { data: output.data as Float32Array, dims: output.dims },
      { numChannels: this.card.classes.length, channelThresholds: thresholds },
    );
  }

  /** The model input a `w` x `h` frame is padded to: the next stride multiple, or the fixed size. */
  private paddedSize(w: number, h: number): { tw: number; th: number } {
    const { width: W, height: H, dynamic, stride } = this.card.input;
    if (dynamic) return { tw: Math.ceil(w / stride) * stride, th: Math.ceil(h / stride) * stride };
    if (w > W || h > H) {
      throw new RangeError(`Frame ${w}x${h} is larger than the model input ${W}x${H}`);
    }
    return { tw: W, th: H };
  }

  /**
   * The score thresholds `detect` keeps detections at, the card's (eval measures precision,
   * recall and count error at them).
   */
  scoreThresholds(): { score: number; perClass: Partial<Record<ProductClass, number>> } {
    const { score, perClass } = this.card.thresholds;
    return { score, perClass: perClass ?? {} };
  }

  private thresholds(options: DetectOptions): Float32Array {
    const { score, perClass } = this.scoreThresholds();
    const override = options.scoreThreshold;
    if (override !== undefined && !(override >= 0 && override <= 1)) {
      throw new RangeError(`scoreThreshold must be in [0, 1], got ${override}`);
    }
    const laid = options.thresholds ?? {};
    for (const [cls, t] of Object.entries(laid)) {
      if (!(t >= 0 && t <= 1))
        throw new RangeError(`The ${cls} threshold must be in [0, 1], got ${t}`);
    }
    return Float32Array.from(this.card.classes, (cls) =>
      cls === null ? Infinity : (override ?? laid[cls] ?? perClass[cls] ?? score),
    );
  }

  /** Candidates -> source-pixel detections after NMS. */
  private toDetections(c: Candidates, w: number, h: number, sx: number, sy: number): Detection[] {
    let order = Array.from({ length: c.count }, (_, i) => i);
    if (order.length > MAX_CANDIDATES) {
      order = order.sort((a, b) => c.scores[b]! - c.scores[a]!).slice(0, MAX_CANDIDATES);
    }
    const detections: Detection[] = [];
    for (const i of order) {
      const cls = this.card.classes[c.channels[i]!];
      if (!cls) continue;
      const box = sourceBox(
        {
          x1: c.boxes[i * 4]!,
          y1: c.boxes[i * 4 + 1]!,
          x2: c.boxes[i * 4 + 2]!,
          y2: c.boxes[i * 4 + 3]!,
        },
        w,
        h,
        sx,
        sy,
      );
      const score = Math.min(1, c.scores[i]!);
      if (!box || !Number.isFinite(score)) continue;
      detections.push(makeDetection(cls, score, box));
    }
    return nonMaxSuppression(detections, this.card.thresholds.nmsIou);
  }

  private bufferFor(tw: number, th: number): Float32Array {
    const key = `${tw}x${th}`;
    let buffer = this.buffers.get(key);
    if (!buffer) {
      // A batch usually has a handful of frame sizes; keep a few.
      if (this.buffers.size >= 4) this.buffers.clear();
      buffer = new Float32Array(3 * tw * th);
      this.buffers.set(key, buffer);
    }
    return buffer;
  }

  private async openSession(): Promise<DetectorSession> {
    const { modelPath } = this.card;
    let session: DetectorSession;
    try {
      session = await this.createSession(modelPath, sessionOptions(this.threads));
    } catch (error) {
      throw new ModelError(`Cannot load the model ${modelPath}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const problems: string[] = [];
    if (!session.inputNames.includes(this.card.input.name)) {
      problems.push(
        `input.name "${this.card.input.name}" is not an input (${session.inputNames.join(', ')})`,
      );
    }
    if (!session.outputNames.includes(this.card.output.name)) {
      problems.push(
        `output.name "${this.card.output.name}" is not an output (${session.outputNames.join(', ')})`,
      );
    }
    if (problems.length > 0) {
      await session.release().catch(() => undefined);
      throw new ModelError(
        `The model card ${this.card.cardPath} does not match the model: ${problems.join('; ')}.`,
      );
    }
    return session;
  }
}

function checkFrame({ width: w, height: h, data }: RawFrame): void {
  if (
    !(Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0) ||
    data.length !== w * h * 3
  ) {
    throw new RangeError(`Frame ${w}x${h} must carry ${w * h * 3} RGB bytes, got ${data.length}`);
  }
}

/** A box as corners in the pixels of the frame the detector saw. */
interface FrameBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * A frame-pixel box clipped to the real frame (not the padding) and scaled to source pixels, or
 * null when nothing of it is left.
 */
function sourceBox(b: FrameBox, w: number, h: number, sx: number, sy: number): Box | null {
  const x1 = Math.max(0, Math.min(w, b.x1)) * sx;
  const y1 = Math.max(0, Math.min(h, b.y1)) * sy;
  const x2 = Math.max(0, Math.min(w, b.x2)) * sx;
  const y2 = Math.max(0, Math.min(h, b.y2)) * sy;
  return x2 > x1 && y2 > y1 ? { x: x1, y: y1, width: x2 - x1, height: y2 - y1 } : null;
}
