/**
 * The detector: one ONNX model described by its card. The onnxruntime session is created lazily,
 * once, on the first `detect` (or `load`). Frames arrive already scaled to `inputSizeFor(...)` by
 * ffmpeg, so `detect` only normalises, runs, decodes and maps boxes back to source pixels.
 */
import * as ort from 'onnxruntime-node';
import { ModelError } from '../errors.ts';
import type { Box, Detection, MediaKind, ModelIdentity, ProductClass, RawFrame } from '../types.ts';
import { adapterFor } from './adapters/index.ts';
import type { Candidates, OutputAdapter } from './adapters/index.ts';
import { makeDetection } from './detection.ts';
import { availableClasses, loadModelCard } from './model-card.ts';
import type { ModelCard, TestTimeAugmentationCard } from './model-card.ts';
import { nonMaxSuppression } from './nms.ts';
import { zoomFor } from './zoom.ts';
import { defaultSessionFactory, LazySession, sessionOptions } from './session.ts';
import type { DetectorSession, SessionFactory } from './session.ts';
import { BoxRefiner } from './box-refiner.ts';
import type { FrameBox } from './crop-model.ts';
import { mixTypes, SubtypeClassifier } from './subtype-classifier.ts';
import { fillTensor, makeNormaliser } from './preprocess.ts';
import type { Normaliser } from './preprocess.ts';
import { fuseViews, takeChannels, unviewCandidates, viewFrame } from './test-time.ts';
import type { View } from './test-time.ts';

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
  /**
   * What the frame comes from: the card's test-time views (`test_time_augmentation`) run for
   * the media it names. Unset: one pass.
   */
  media?: MediaKind;
  /**
   * The same picture decoded at `detailSizeFor(...)`, for a subtype classifier that crops from
   * more pixels than the detector sees. Without it such a classifier crops from `frame`.
   */
  detailFrame?: RawFrame;
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
  /** Re-types honeybees when the card names a subtype classifier. */
  private readonly subtype: SubtypeClassifier | undefined;
  /** The classifier the test-time views swap in on their media, when they name one. */
  private readonly testTimeSubtype: SubtypeClassifier | undefined;
  /** Redraws detections' boxes when the card names a box refiner. */
  private readonly refiner: BoxRefiner | undefined;
  /**
   * Score channel of each of the classifier's classes, in its order: decoded as one honeybee
   * score, so a candidate's group score j is the detector's own score for class j.
   */
  private readonly mergedChannels: number[] = [];
  private readonly lazy = new LazySession(() => this.openSession(this.card.modelPath));
  /** The detector the test-time views run in the card's place on their media, when named. */
  private readonly testTimeDetector: LazySession | undefined;
  /** The test-time views' specialist detector and the channels it answers for, when named. */
  private readonly specialist: { lazy: LazySession; channels: ReadonlySet<number> } | undefined;
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
    if (card.boxRefiner) {
      this.refiner = new BoxRefiner(card.boxRefiner, threads, this.createSession);
    }
    if (card.subtypeClassifier) {
      this.subtype = new SubtypeClassifier(card.subtypeClassifier, threads, this.createSession);
      this.mergedChannels = card.subtypeClassifier.classes.map((cls) => card.classes.indexOf(cls));
    }
    const swapped = card.testTimeAugmentation?.subtypeClassifier;
    if (swapped) this.testTimeSubtype = new SubtypeClassifier(swapped, threads, this.createSession);
    const inPlace = card.testTimeAugmentation?.detector;
    if (inPlace) this.testTimeDetector = new LazySession(() => this.openSession(inPlace.modelPath));
    const specialist = card.testTimeAugmentation?.specialist;
    if (specialist) {
      this.specialist = {
        lazy: new LazySession(() => this.openSession(specialist.modelPath)),
        channels: new Set(specialist.classes.map((cls) => card.classes.indexOf(cls))),
      };
    }
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
   * The size to decode a detail frame of a `media` source at (`DetectOptions.detailFrame`), or
   * undefined when its subtype classifier crops from the detector's own frame: `input.detail`
   * x `inputSizeFor(..., zoom)`, never larger than the source.
   */
  detailSizeFor(
    sourceWidth: number,
    sourceHeight: number,
    media: MediaKind,
    zoom = 1,
  ): { width: number; height: number } | undefined {
    const detail = this.subtypeFor(media)?.card.detail ?? 1;
    if (detail <= 1) return undefined;
    const { width, height } = this.inputSizeFor(sourceWidth, sourceHeight, zoom);
    const size = {
      width: Math.min(sourceWidth, width * detail),
      height: Math.min(sourceHeight, height * detail),
    };
    return size.width > width || size.height > height ? size : undefined;
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
    media?: MediaKind,
  ): number | undefined {
    const card = this.card.input.autoZoom;
    if (!card) return undefined;
    const { score, perClass } = this.scoreThresholds(media);
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

  /** Creates the sessions now (they are otherwise created by the first `detect`). */
  async load(): Promise<void> {
    await this.lazy.get();
    await this.refiner?.load();
    await this.subtype?.load();
    await this.testTimeSubtype?.load();
    await this.specialist?.lazy.get();
    await this.testTimeDetector?.get();
  }

  /**
   * Creates, side by side, the sessions `detect` on `media` uses (and none it does not), so a
   * caller can have them made while ffprobe and ffmpeg start instead of after the first frame.
   */
  async warm(media: MediaKind): Promise<void> {
    const testTime = this.testTimeFor(media);
    const views = testTime?.views ?? ['identity'];
    await Promise.all([
      (testTime?.detector ? this.testTimeDetector! : this.lazy).get(),
      testTime?.specialist ? this.specialist?.lazy.get() : undefined,
      this.subtypeFor(media)?.load(),
      views.length === 1 || testTime?.refine !== false ? this.refiner?.load() : undefined,
    ]);
  }

  async close(): Promise<void> {
    this.buffers.clear();
    await this.lazy.release();
    await this.refiner?.close();
    await this.subtype?.close();
    await this.testTimeSubtype?.close();
    await this.specialist?.lazy.release();
    await this.testTimeDetector?.release();
  }

  async detect(
    frame: RawFrame,
    sourceWidth: number,
    sourceHeight: number,
    options: DetectOptions = {},
  ): Promise<Detection[]> {
    checkFrame(frame, 'Frame');
    const { width: w, height: h } = frame;
    if (!(sourceWidth > 0 && sourceHeight > 0)) {
      throw new RangeError(`Invalid source size ${sourceWidth}x${sourceHeight}`);
    }
    if (options.detailFrame) checkFrame(options.detailFrame, 'Detail frame');
    const { tw, th } = this.paddedSize(w, h);
    const testTime = this.testTimeFor(options.media);
    const session = await (testTime?.detector ? this.testTimeDetector! : this.lazy).get();
    const run = this.queue.then(async () => {
      const thresholds = this.thresholds(options);
      const views = testTime?.views ?? ['identity'];
      // A specialist runs on its own views, even beside a single view of the detector's.
      const candidates =
        views.length > 1 || testTime?.specialist
          ? await this.fusedCandidates(session, frame, { thresholds, views })
          : await this.candidates(session, frame, tw, th, thresholds);
      const sx = sourceWidth / w;
      const sy = sourceHeight / h;
      const source = new Map<Detection, number>();
      const found = this.toDetections(candidates, w, h, sx, sy, source);
      // The classifier crops around the detector's own boxes (what it was trained on); the
      // refiner then redraws the boxes of the classes it was made for.
      const subtype = this.subtypeFor(options.media);
      const crops = (subtype && subtype.card.detail > 1 && options.detailFrame) || frame;
      const typed = subtype
        ? await this.retype(subtype, crops, found, {
            sx: sourceWidth / crops.width,
            sy: sourceHeight / crops.height,
            thresholds,
            candidates,
            source,
            views: testTime?.cropViews ?? ['identity'],
          })
        : found;
      const refine = views.length === 1 || testTime?.refine !== false;
      const drawn =
        this.refiner && refine ? await this.refine(this.refiner, frame, typed, { sx, sy }) : typed;
      return testTime ? drawn : this.suppressTyped(drawn);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Suppresses again, once typed, the classes with an overlap of their own
   * (`thresholds.typed_nms_iou`), on frames the card's detector sees alone. The honeybees are
   * suppressed as one class at `nms_iou`, and two boxes on the parts of one large insect that
   * overlap less are typed, and kept, apart: on moving footage each became a track, and the
   * default path counted drones a fifth high. Fused test-time views make few such twins.
   */
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
      {
        numChannels: this.card.classes.length,
        channelThresholds: thresholds,
        mergedChannels: this.mergedChannels,
      },
    );
  }

  /** The subtype classifier for `media`: the test-time views' own where they name one. */
  private subtypeFor(media: MediaKind | undefined): SubtypeClassifier | undefined {
    return (this.testTimeFor(media) && this.testTimeSubtype) || this.subtype;
  }

  /** The card's test-time views when they apply to `media`. */
  private testTimeFor(media: MediaKind | undefined): TestTimeAugmentationCard | undefined {
    const tta = this.card.testTimeAugmentation;
    return tta && media && tta.media.includes(media) ? tta : undefined;
  }

  /**
   * Every view decoded at the card's floor, mapped back onto the frame and fused; candidates of
   * the specialist's classes are the specialist's, fused over its own views, when the card
   * names one.
   */
  private async fusedCandidates(
    session: DetectorSession,
    frame: RawFrame,
    at: { thresholds: Float32Array; views: readonly View[] },
  ): Promise<Candidates> {
    const { thresholds, views } = at;
    const tta = this.card.testTimeAugmentation!;
    const low = thresholds.map((t) => Math.min(t, tta.floor));
    // The adapter keeps a merged honeybee at the lowest of its channels' thresholds.
    const merged = this.mergedChannels;
    const mergedThreshold = Math.min(...merged.map((c) => thresholds[c]!));
    const thresholdOf = (channel: number) =>
      merged.length > 0 && channel === merged[0] ? mergedThreshold : thresholds[channel]!;
    // Each network's candidates are fused only on the channels it answers for: fuseViews skips
    // a candidate below its threshold, so the other's channels cost no matching.
    const fuse = (
      s: DetectorSession,
      over: readonly View[],
      answers: (channel: number) => boolean,
    ) =>
      this.viewedCandidates(s, frame, over, low).then((decoded) =>
        fuseViews(decoded, {
          matchIou: tta.matchIou,
          thresholdOf: (channel) => (answers(channel) ? thresholdOf(channel) : Infinity),
          groupSize: merged.length,
        }),
      );
    const specialist = this.specialist;
    const own = await fuse(session, views, (channel) => !specialist?.channels.has(channel));
    if (!specialist) return own;
    const theirs = await fuse(await specialist.lazy.get(), tta.specialist!.views, (channel) =>
      specialist.channels.has(channel),
    );
    return takeChannels(own, theirs, specialist.channels, merged.length);
  }

  /** Each view's candidates, decoded at `low` and mapped back onto the frame. */
  private async viewedCandidates(
    session: DetectorSession,
    frame: RawFrame,
    views: readonly View[],
    low: Float32Array,
  ): Promise<Candidates[]> {
    const decoded: Candidates[] = [];
    for (const view of views) {
      const seen = viewFrame(frame, view);
      const { tw, th } = this.paddedSize(seen.width, seen.height);
      const c = await this.candidates(session, seen, tw, th, low);
      unviewCandidates(c, view, frame.width, frame.height);
      decoded.push(c);
    }
    return decoded;
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
   * The score thresholds `detect` keeps detections at on `media` (eval measures precision,
   * recall and count error at them): the card's, with the test-time detector's own default
   * score where it runs in the card's place.
   */
  scoreThresholds(media?: MediaKind): {
    score: number;
    perClass: Partial<Record<ProductClass, number>>;
  } {
    const { score, perClass } = this.card.thresholds;
    return { score: this.testTimeFor(media)?.detector?.score ?? score, perClass: perClass ?? {} };
  }

  /**
   * Per class, the median score a video track that moved needs to count as an insect when its
   * frames are detected as `media` (the tracker's `countScore`): the card's
   * `thresholds.track_score` where frames get the card's detector alone, else none (the
   * test-time views' fused scores have needed none).
   */
  trackScores(media?: MediaKind): Partial<Record<ProductClass, number>> | undefined {
    return this.testTimeFor(media) ? undefined : this.card.thresholds.trackScore;
  }

  private thresholds(options: DetectOptions): Float32Array {
    const { score, perClass } = this.scoreThresholds(options.media);
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

  /** Candidates -> source-pixel detections after NMS; `source` maps each to its candidate. */
  private toDetections(
    c: Candidates,
    w: number,
    h: number,
    sx: number,
    sy: number,
    source: Map<Detection, number>,
  ): Detection[] {
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
      const detection = makeDetection(cls, score, box);
      source.set(detection, i);
      detections.push(detection);
    }
    return nonMaxSuppression(detections, this.card.thresholds.nmsIou);
  }

  /**
   * Redraws the boxes of the best `maxCrops` detections of the refiner's classes (the rest keep
   * the detector's boxes), then suppresses again: two peaks on one insect usually refine onto
   * the same box.
   */
  private async refine(
    refiner: BoxRefiner,
    frame: RawFrame,
    detections: Detection[],
    at: { sx: number; sy: number },
  ): Promise<Detection[]> {
    const { sx, sy } = at;
    const { width: w, height: h } = frame;
    const { classes, maxCrops } = refiner.card;
    const chosen = detections.filter((d) => classes.includes(d.cls)).slice(0, maxCrops);
    if (chosen.length === 0) return detections;
    const boxes = await refiner.refine(
      frame,
      chosen.map(({ box }) => frameBox(box, sx, sy)),
    );
    const redrawn = new Map<Detection, Detection>();
    chosen.forEach((d, n) => {
      const box = sourceBox(boxes[n]!, w, h, sx, sy);
      if (box) redrawn.set(d, makeDetection(d.cls, d.score, box));
    });
    return nonMaxSuppression(
      detections.map((d) => redrawn.get(d) ?? d),
      this.card.thresholds.nmsIou,
    );
  }

  /**
   * The classifier splits each honeybee's summed score among its classes: the detection takes
   * the most likely class (the classifier's probabilities, blended with the detector's own
   * subtype split by the card's `detector_weight`), scored honeybee score x the classifier's
   * belief that it is a honeybee at all x that class's probability, and is kept when that
   * reaches the class's threshold. Beyond `maxCrops` honeybees in a frame
   * (the weakest: detections arrive best first) candidates are dropped rather than left untyped.
   */
  private async retype(
    classifier: SubtypeClassifier,
    frame: RawFrame,
    detections: Detection[],
    at: {
      sx: number;
      sy: number;
      thresholds: Float32Array;
      candidates: Candidates;
      source: Map<Detection, number>;
      views: readonly View[];
    },
  ): Promise<Detection[]> {
    const { sx, sy, thresholds, candidates, source, views } = at;
    const honeybee = this.card.classes[this.mergedChannels[0]!];
    const bees = detections.filter((d) => d.cls === honeybee).slice(0, classifier.card.maxCrops);
    const probs = await classifier.classify(
      frame,
      bees.map(({ box }) => frameBox(box, sx, sy)),
      views,
    );
    const { classes, detectorWeights, typeColumns, noneColumn, columns } = classifier.card;
    const k = classes.length;
    const own = new Float32Array(k);
    const types = new Float32Array(k);
    const out = detections.filter((d) => d.cls !== honeybee);
    bees.forEach((bee, n) => {
      const row = probs.subarray(n * columns, (n + 1) * columns);
      const i = source.get(bee)!;
      let typeSum = 0;
      for (let j = 0; j < k; j++) {
        own[j] = candidates.groupScores![i * k + j]!;
        types[j] = row[typeColumns[j]!]!;
        typeSum += types[j]!;
      }
      for (let j = 0; j < k; j++) types[j] = typeSum > 0 ? types[j]! / typeSum : 1 / k;
      const mixed = mixTypes(types, own, detectorWeights);
      let best = 0;
      for (let j = 1; j < k; j++) if (mixed[j]! > mixed[best]!) best = j;
      const cls = classes[best]!;
      const honeybeeProb = noneColumn === null ? 1 : 1 - row[noneColumn]!;
      const score = bee.score * honeybeeProb * mixed[best]!;
      if (score >= thresholds[this.card.classes.indexOf(cls)]!) {
        out.push(makeDetection(cls, score, bee.box));
      }
    });
    return out.sort((a, b) => b.score - a.score);
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

  private async openSession(modelPath: string): Promise<DetectorSession> {
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
        `The model card ${this.card.cardPath} does not match the model${modelPath === this.card.modelPath ? '' : ` ${modelPath}`}: ${problems.join('; ')}.`,
      );
    }
    return session;
  }
}

function checkFrame({ width: w, height: h, data }: RawFrame, what: string): void {
  if (
    !(Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0) ||
    data.length !== w * h * 3
  ) {
    throw new RangeError(`${what} ${w}x${h} must carry ${w * h * 3} RGB bytes, got ${data.length}`);
  }
}

/** A source-pixel box in the pixels of the frame the detector saw. */
function frameBox(box: Box, sx: number, sy: number): FrameBox {
  return {
    x1: box.x / sx,
    y1: box.y / sy,
    x2: (box.x + box.width) / sx,
    y2: (box.y + box.height) / sy,
  };
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
