/**
 * Reads and validates a model card (`NAME.card.json`, see models/README.md). Every field is
 * checked and every problem is named in one ModelError, so a broken card is fixed in one go.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelError } from '../errors.ts';
import { isProductClass, PRODUCT_CLASSES } from '../types.ts';
import type { MediaKind, ProductClass } from '../types.ts';
import { OUTPUT_FORMATS } from './adapters/index.ts';
import type { CropShape } from './crop-model.ts';
import { isView, viewAxes, VIEWS } from './test-time.ts';
import type { View } from './test-time.ts';
import type { AutoZoomCard } from './zoom.ts';

export interface ModelCard {
  name: string;
  version: string;
  /** ONNX file name as written in the card (relative to the card). */
  file: string;
  /** Score channel i -> product class, or null for a channel the product ignores. */
  classes: (ProductClass | null)[];
  input: {
    name: string;
    width: number;
    height: number;
    dynamic: boolean;
    stride: number;
    channels: 'RGB' | 'BGR';
    /**
     * How far a source smaller than width x height may be enlarged (default 1: never). The
     * model learnt insects at their own pixel sizes; blowing a 180x300 close-up up to 544 px
     * tall shows it a bee larger than anything it was trained on.
     */
    maxUpscale: number;
    /** Decode again at another scale when the honeybees are off the learnt size (`zoom.ts`). */
    autoZoom?: AutoZoomCard;
  };
  normalization: { scale: number; mean: [number, number, number]; std: [number, number, number] };
  output: { name: string; format: string };
  thresholds: {
    score: number;
    nms_iou: number;
    /**
     * Per class, the overlap above which a typed box of the class suppresses its weaker twin,
     * where frames get the card's detector alone (no test-time views): `Detector.detect`.
     */
    typed_nms_iou?: Partial<Record<ProductClass, number>>;
    per_class?: Partial<Record<ProductClass, number>>;
    /**
     * Per class, the median score a video track's hits need for it to count as an insect once it
     * has moved, where frames get the card's detector alone (no test-time views):
     * `Detector.trackScores`.
     */
    track_score?: Partial<Record<ProductClass, number>>;
  };
  metrics?: Record<string, unknown>;
  training?: Record<string, unknown>;
  limitations?: string[];
  /**
   * A second model that re-types each honeybee the detector finds (worker, pollen, drone) from a
   * crop around it. Its classes must be classes of the detector: their score channels are summed
   * into one honeybee score, which the classifier's probability then divides among them.
   */
  subtypeClassifier?: SubtypeClassifierCard;
  /**
   * A second model that redraws the boxes of some classes' detections from a crop around each
   * (after the subtype classifier, which crops around the detector's own boxes).
   */
  boxRefiner?: BoxRefinerCard;
  /** Mirrored or turned views the detector also runs, and fuses, on the media named (test-time.ts). */
  testTimeAugmentation?: TestTimeAugmentationCard;
  /** Absolute path of the card file. */
  cardPath: string;
  /** Absolute path of the ONNX file. */
  modelPath: string;
}

/** What every second-stage crop model's section of a card says (`subtype_classifier`, `box_refiner`). */
export interface CropModelCard {
  file: string;
  /** Absolute path of its ONNX file. */
  modelPath: string;
  input: {
    name: string;
    /** Crops are `size` x `size`. */
    size: number;
    /** How far the crop reaches beyond the box (see `crop`). */
    context: number;
    /**
     * `square` (default): a square of `context` x the box's longer side, centred on the box;
     * `box`: `context` x each side of the box, stretched to a square.
     */
    crop: CropShape;
    channels: 'RGB' | 'BGR';
  };
  normalization: { scale: number; mean: [number, number, number]; std: [number, number, number] };
  output: { name: string };
  /** Most crops run per frame, best detections first (bounds the cost). */
  maxCrops: number;
  metrics?: Record<string, unknown>;
  training?: Record<string, unknown>;
}

export interface BoxRefinerCard extends CropModelCard {
  /** The detector classes whose boxes it redraws (default: all of them). */
  classes: ProductClass[];
}

export interface SubtypeClassifierCard extends CropModelCard {
  /** The types it tells apart, each one of the detector's classes. */
  classes: ProductClass[];
  /** Output column of each type (`classes[j]` is column `typeColumns[j]`). */
  typeColumns: number[];
  /**
   * Output column of "not a honeybee" (a `null` in the card's classes), or null when the model
   * has none. Its probability scales the honeybee score down: a second opinion on the detection.
   */
  noneColumn: number | null;
  /** Output columns in all. */
  columns: number;
  /**
   * Per class (in `classes` order): weight of the detector's own subtype split against the
   * classifier's (0: classifier only). The card gives one number or one per class.
   */
  detectorWeights: number[];
  /**
   * `input.detail` (default 1): crops are cut from the source decoded at up to `detail` x the
   * detector's input size (never beyond the source's own pixels), so the classifier sees more of
   * each bee than the detector did. Photos only: a frame decoded twice is cheap once, not 30
   * times a second.
   */
  detail: number;
}

export interface TestTimeAugmentationCard {
  /** Views run on every frame of those media, `identity` first. */
  views: View[];
  /**
   * Views of each honeybee's crop the subtype classifier sees, its answers averaged (`identity`
   * first; default identity alone). All crops go in one run, but each view still costs a crop.
   */
  cropViews: View[];
  /** Which media get them (a photo is one frame, a video hundreds: it costs a pass per view). */
  media: MediaKind[];
  /** IoU at which two views' boxes are one insect. */
  matchIou: number;
  /** Score floor at which the views are decoded before fusing (below every class threshold). */
  floor: number;
  /**
   * Whether the box refiner still redraws fused boxes (default true). The mean of the views' boxes
   * is already a second look; a refiner trained on single-view boxes can move it off the insect.
   */
  refine: boolean;
  /**
   * A subtype classifier used on those media instead of the card's own (same classes): one
   * that costs more per bee, or needs a detail frame (`input.detail`), than every frame of a
   * video can pay for.
   */
  subtypeClassifier?: SubtypeClassifierCard;
  /**
   * A second detector run on the views whose candidates replace the card's own for its
   * `classes`: a network trained with more of those classes' data that lost the others, so it
   * answers only for them (photos can pay for two passes per view; video frames cannot). It is
   * read exactly as the card's detector is (input, normalisation, output format, thresholds).
   */
  specialist?: SpecialistCard;
  /**
   * A detector run on those media in the card's own place: a wider network than a video's
   * hundreds of frames can pay for (a photo is one frame). It is read exactly as the card's
   * detector is (input, normalisation, output format, per-class thresholds, views), with its
   * own default score threshold, chosen for it; video frames keep the card's detector.
   */
  detector?: TestTimeDetectorCard;
}

export interface TestTimeDetectorCard {
  file: string;
  /** Absolute path of its ONNX file. */
  modelPath: string;
  /** Replaces `thresholds.score` (classes without a `per_class` threshold) on those media. */
  score: number;
}

export interface SpecialistCard {
  file: string;
  /** Absolute path of its ONNX file. */
  modelPath: string;
  /** Detector classes whose candidates it supplies; never the honeybee classes a classifier splits. */
  classes: ProductClass[];
  /**
   * The views it runs on, its candidates fused over them (default: the card's `views`). It
   * answers for few classes, so photos can pay for more of its views than of the detector's.
   */
  views: View[];
}

/** The card for `p`: the path itself for `.json`, `NAME.card.json` beside `NAME.onnx`. */
export function cardPathFor(p: string): string {
  const abs = path.resolve(p);
  if (abs.toLowerCase().endsWith('.json')) return abs;
  if (abs.toLowerCase().endsWith('.onnx')) return abs.slice(0, -'.onnx'.length) + '.card.json';
  throw new ModelError(`A model path must name a .card.json or an .onnx file: ${p}`);
}

export async function loadModelCard(p: string): Promise<ModelCard> {
  const cardPath = cardPathFor(p);
  let text: string;
  try {
    text = await readFile(cardPath, 'utf8');
  } catch (error) {
    throw new ModelError(`Cannot read the model card ${cardPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelError(
      `The model card ${cardPath} is not valid JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const card = validateModelCard(json, cardPath);
  for (const modelPath of [
    card.modelPath,
    card.subtypeClassifier?.modelPath,
    card.testTimeAugmentation?.subtypeClassifier?.modelPath,
    card.testTimeAugmentation?.specialist?.modelPath,
    card.testTimeAugmentation?.detector?.modelPath,
    card.boxRefiner?.modelPath,
  ]) {
    if (modelPath === undefined) continue;
    try {
      if (!(await stat(modelPath)).isFile()) throw new Error('not a file');
    } catch {
      throw new ModelError(`The model file named by ${cardPath} does not exist: ${modelPath}`);
    }
  }
  return card;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates parsed card JSON; throws one ModelError listing every bad field. */
export function validateModelCard(json: unknown, cardPath: string): ModelCard {
  const problems: string[] = [];
  const bad = (field: string, why: string): undefined => {
    problems.push(`${field} ${why}`);
    return undefined;
  };
  const obj = (v: unknown, field: string): Obj =>
    isObj(v) ? v : (bad(field, 'must be an object'), {});
  const str = (v: unknown, field: string): string =>
    typeof v === 'string' && v.trim() !== '' ? v : (bad(field, 'must be a non-empty string'), '');
  const num = (
    v: unknown,
    field: string,
    min: number,
    max: number,
    exclusiveMin = false,
  ): number => {
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v <= max &&
      (exclusiveMin ? v > min : v >= min);
    if (!ok) bad(field, `must be a number in ${exclusiveMin ? '(' : '['}${min}, ${max}]`);
    return ok ? v : 0;
  };
  const int = (v: unknown, field: string, min: number, max: number): number => {
    const ok = typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
    if (!ok) bad(field, `must be an integer in [${min}, ${max}]`);
    return ok ? v : 0;
  };
  const triple = (v: unknown, field: string, positive: boolean): [number, number, number] => {
    if (!Array.isArray(v) || v.length !== 3) {
      bad(field, 'must be an array of 3 numbers');
      return [0, 0, 0];
    }
    return v.map((x, i) =>
      positive ? num(x, `${field}[${i}]`, 0, 1e6, true) : num(x, `${field}[${i}]`, -1e6, 1e6),
    ) as [number, number, number];
  };

  const list = <T>(v: unknown, field: string, ok: (x: unknown) => x is T, names: string): T[] => {
    if (!Array.isArray(v) || v.length === 0 || !v.every(ok) || new Set(v).size !== v.length) {
      bad(field, `must be a non-empty array of distinct values from ${names}`);
      return [];
    }
    return v;
  };
  const viewList = (v: unknown, field: string): View[] => {
    const views = list(v, field, isView, VIEWS.join(', '));
    if (views.length > 0 && views[0] !== 'identity') bad(field, 'must start with "identity"');
    return views;
  };
  /** A detector's views: a turned frame swaps its sides, which a fixed oblong input cannot take. */
  const frameViews = (v: unknown, field: string): View[] => {
    const views = viewList(v, field);
    const { dynamic, width, height } = card.input;
    if (!dynamic && width !== height && views.some((view) => viewAxes(view).t)) {
      bad(
        field,
        'may turn the frame (transpose, rotate_90, rotate_270, transverse) only for a dynamic or square input',
      );
    }
    return views;
  };
  /** A model's `file` field: an .onnx file named relative to the card, and its absolute path. */
  const onnxFile = (v: unknown, field: string): { file: string; modelPath: string } => {
    const file = str(v, field);
    if (file && !file.toLowerCase().endsWith('.onnx')) bad(field, 'must name an .onnx file');
    return { file, modelPath: path.resolve(path.dirname(cardPath), file) };
  };
  /** The fields every crop model's section shares (see CropModelCard). */
  const cropModel = (sec: Obj, prefix: string): CropModelCard => {
    const f = (k: string) => `${prefix}.${k}`;
    const inp = obj(sec.input, f('input'));
    const norm = obj(sec.normalization, f('normalization'));
    const out = obj(sec.output, f('output'));
    const section: CropModelCard = {
      ...onnxFile(sec.file, f('file')),
      input: {
        name: str(inp.name, f('input.name')),
        size: int(inp.size, f('input.size'), 4, 1024),
        context: num(inp.context, f('input.context'), 0.5, 8),
        crop:
          inp.crop === undefined || inp.crop === 'square' || inp.crop === 'box'
            ? (inp.crop ?? 'square')
            : (bad(f('input.crop'), 'must be "square" or "box"'), 'square'),
        channels:
          inp.channels === 'RGB' || inp.channels === 'BGR'
            ? inp.channels
            : (bad(f('input.channels'), 'must be "RGB" or "BGR"'), 'RGB'),
      },
      normalization: {
        scale: num(norm.scale, f('normalization.scale'), 0, 1e6, true),
        mean: triple(norm.mean, f('normalization.mean'), false),
        std: triple(norm.std, f('normalization.std'), true),
      },
      output: { name: str(out.name, f('output.name')) },
      maxCrops: sec.max_crops === undefined ? 256 : int(sec.max_crops, f('max_crops'), 1, 100_000),
    };
    if (sec.metrics !== undefined) section.metrics = obj(sec.metrics, f('metrics'));
    if (sec.training !== undefined) section.training = obj(sec.training, f('training'));
    return section;
  };

  const root = obj(json, 'card');
  const name = str(root.name, 'name');
  const version = str(root.version, 'version');
  const model = onnxFile(root.file, 'file');

  const classes: (ProductClass | null)[] = [];
  if (!Array.isArray(root.classes) || root.classes.length === 0) {
    bad('classes', 'must be a non-empty array of product classes or null');
  } else {
    root.classes.forEach((c: unknown, i) => {
      if (c === null) classes.push(null);
      else if (!isProductClass(c))
        bad(`classes[${i}]`, `must be one of ${PRODUCT_CLASSES.join(', ')} or null`);
      else if (classes.includes(c)) bad(`classes[${i}]`, `repeats "${c}"`);
      else classes.push(c);
    });
    if (classes.length === root.classes.length && classes.every((c) => c === null)) {
      bad('classes', 'must map at least one channel to a product class');
    }
    if (root.classes.length > 1000) bad('classes', 'has too many channels');
  }

  const inp = obj(root.input, 'input');
  const input: ModelCard['input'] = {
    name: str(inp.name, 'input.name'),
    width: int(inp.width, 'input.width', 1, 8192),
    height: int(inp.height, 'input.height', 1, 8192),
    dynamic:
      typeof inp.dynamic === 'boolean'
        ? inp.dynamic
        : (bad('input.dynamic', 'must be true or false'), false),
    stride: int(inp.stride, 'input.stride', 1, 1024),
    channels:
      inp.channels === 'RGB' || inp.channels === 'BGR'
        ? inp.channels
        : (bad('input.channels', 'must be "RGB" or "BGR"'), 'RGB'),
    maxUpscale:
      inp.max_upscale === undefined ? 1 : num(inp.max_upscale, 'input.max_upscale', 1, 16),
  };
  if (inp.auto_zoom !== undefined) {
    const z = obj(inp.auto_zoom, 'input.auto_zoom');
    input.autoZoom = {
      insectPx: num(z.insect_px, 'input.auto_zoom.insect_px', 1, 1000),
      quantile: num(z.quantile, 'input.auto_zoom.quantile', 0, 1),
      minInsects: int(z.min_insects, 'input.auto_zoom.min_insects', 1, 10_000),
      tolerance: num(z.tolerance, 'input.auto_zoom.tolerance', 1, 10),
      min: num(z.min, 'input.auto_zoom.min', 0.1, 1),
      max: num(z.max, 'input.auto_zoom.max', 1, 4),
    };
    if (!input.dynamic) bad('input.auto_zoom', 'needs a dynamic input (input.dynamic true)');
  }
  if (input.dynamic && input.stride > 0) {
    if (input.width % input.stride !== 0)
      bad('input.width', `must be a multiple of input.stride (${input.stride})`);
    if (input.height % input.stride !== 0)
      bad('input.height', `must be a multiple of input.stride (${input.stride})`);
  }

  const norm = obj(root.normalization, 'normalization');
  const normalization: ModelCard['normalization'] = {
    scale: num(norm.scale, 'normalization.scale', 0, 1e6, true),
    mean: triple(norm.mean, 'normalization.mean', false),
    std: triple(norm.std, 'normalization.std', true),
  };

  const out = obj(root.output, 'output');
  const output = { name: str(out.name, 'output.name'), format: str(out.format, 'output.format') };
  if (output.format && !OUTPUT_FORMATS.includes(output.format)) {
    bad('output.format', `must be one of ${OUTPUT_FORMATS.join(', ')} (got "${output.format}")`);
  }

  const thr = obj(root.thresholds, 'thresholds');
  const thresholds: ModelCard['thresholds'] = {
    score: num(thr.score, 'thresholds.score', 0, 1),
    nms_iou: num(thr.nms_iou, 'thresholds.nms_iou', 0, 1),
  };
  /** A `thresholds` field mapping product classes to values in [0, 1]. */
  const scoresByClass = (key: 'per_class' | 'track_score' | 'typed_nms_iou') => {
    const scores: Partial<Record<ProductClass, number>> = {};
    for (const [cls, value] of Object.entries(obj(thr[key], `thresholds.${key}`))) {
      if (!isProductClass(cls)) bad(`thresholds.${key}.${cls}`, 'is not a product class');
      else scores[cls] = num(value, `thresholds.${key}.${cls}`, 0, 1);
    }
    return scores;
  };
  if (thr.per_class !== undefined) thresholds.per_class = scoresByClass('per_class');
  if (thr.track_score !== undefined) thresholds.track_score = scoresByClass('track_score');
  if (thr.typed_nms_iou !== undefined) thresholds.typed_nms_iou = scoresByClass('typed_nms_iou');

  const card: ModelCard = {
    name,
    version,
    ...model,
    classes,
    input,
    normalization,
    output,
    thresholds,
    cardPath,
  };
  if (root.metrics !== undefined) card.metrics = obj(root.metrics, 'metrics');
  if (root.training !== undefined) card.training = obj(root.training, 'training');
  if (root.limitations !== undefined) {
    if (!Array.isArray(root.limitations) || !root.limitations.every((l) => typeof l === 'string')) {
      bad('limitations', 'must be an array of strings');
    } else card.limitations = root.limitations;
  }

  /** A `subtype_classifier` section (the card's own, or the one its test-time views swap in). */
  const subtypeClassifier = (sc: Obj, prefix: string): SubtypeClassifierCard => {
    const f = (k: string) => `${prefix}.${k}`;
    const scClasses: ProductClass[] = [];
    const typeColumns: number[] = [];
    let noneColumn: number | null = null;
    const columns = Array.isArray(sc.classes) ? sc.classes.length : 0;
    if (!Array.isArray(sc.classes)) {
      bad(f('classes'), 'must be an array of detector classes (and at most one null)');
    } else {
      sc.classes.forEach((c: unknown, i) => {
        if (c === null) {
          if (noneColumn !== null) bad(`${f('classes')}[${i}]`, 'repeats null');
          noneColumn = i;
        } else if (!isProductClass(c) || !classes.includes(c)) {
          bad(`${f('classes')}[${i}]`, 'must be one of the detector classes or null');
        } else if (scClasses.includes(c)) bad(`${f('classes')}[${i}]`, `repeats "${c}"`);
        else {
          scClasses.push(c);
          typeColumns.push(i);
        }
      });
      if (scClasses.length < 2) {
        bad(f('classes'), 'must name at least 2 of the detector classes');
      }
    }
    const inp = isObj(sc.input) ? sc.input : {};
    return {
      ...cropModel(sc, prefix),
      classes: scClasses,
      typeColumns,
      noneColumn,
      columns,
      detail: inp.detail === undefined ? 1 : int(inp.detail, f('input.detail'), 1, 4),
      detectorWeights: scClasses.map((cls) => {
        const w = sc.detector_weight;
        if (w === undefined) return 0;
        if (typeof w === 'number') return num(w, f('detector_weight'), 0, 1);
        const per = obj(w, f('detector_weight'));
        return per[cls] === undefined ? 0 : num(per[cls], f(`detector_weight.${cls}`), 0, 1);
      }),
    };
  };
  if (root.subtype_classifier !== undefined) {
    card.subtypeClassifier = subtypeClassifier(
      obj(root.subtype_classifier, 'subtype_classifier'),
      'subtype_classifier',
    );
    if (card.subtypeClassifier.detail > 1) {
      // A video's frames are decoded once, at the detector's size (the video speed targets).
      bad(
        'subtype_classifier.input.detail',
        'must be 1: detail crops are for photos (name that classifier in test_time_augmentation.subtype_classifier with media ["image"])',
      );
    }
  }
  if (root.box_refiner !== undefined) {
    const br = obj(root.box_refiner, 'box_refiner');
    const detected = classes.filter((c): c is ProductClass => c !== null);
    let brClasses = detected;
    if (br.classes !== undefined) {
      if (!Array.isArray(br.classes) || br.classes.length === 0) {
        bad('box_refiner.classes', 'must be a non-empty array of detector classes');
      } else {
        brClasses = [];
        br.classes.forEach((c: unknown, i) => {
          if (!isProductClass(c) || !detected.includes(c)) {
            bad(`box_refiner.classes[${i}]`, 'must be one of the detector classes');
          } else if (!brClasses.includes(c)) brClasses.push(c);
        });
      }
    }
    card.boxRefiner = { ...cropModel(br, 'box_refiner'), classes: brClasses };
  }

  if (root.test_time_augmentation !== undefined) {
    const tta = obj(root.test_time_augmentation, 'test_time_augmentation');
    const f = (k: string) => `test_time_augmentation.${k}`;
    card.testTimeAugmentation = {
      views: frameViews(tta.views, f('views')),
      cropViews:
        tta.crop_views === undefined ? ['identity'] : viewList(tta.crop_views, f('crop_views')),
      media: list(
        tta.media,
        f('media'),
        (x): x is MediaKind => x === 'image' || x === 'video',
        'image, video',
      ),
      matchIou: num(tta.match_iou, f('match_iou'), 0, 1, true),
      floor: tta.floor === undefined ? 0.01 : num(tta.floor, f('floor'), 0, 1),
      refine:
        tta.refine === undefined || typeof tta.refine === 'boolean'
          ? tta.refine !== false
          : (bad(f('refine'), 'must be true or false'), true),
    };
    if (tta.subtype_classifier !== undefined) {
      const own = card.subtypeClassifier;
      const swapped = subtypeClassifier(
        obj(tta.subtype_classifier, f('subtype_classifier')),
        f('subtype_classifier'),
      );
      // The detector decodes the classifier's classes as one honeybee score: both must agree.
      if (!own || own.classes.join() !== swapped.classes.join()) {
        bad(f('subtype_classifier.classes'), "must be the card's subtype_classifier.classes");
      }
      if (swapped.detail > 1 && card.testTimeAugmentation.media.join() !== 'image') {
        bad(f('subtype_classifier.input.detail'), 'above 1 needs media ["image"]');
      }
      card.testTimeAugmentation.subtypeClassifier = swapped;
    }
    if (tta.specialist !== undefined) {
      const sp = obj(tta.specialist, f('specialist'));
      // A honeybee class's channel is decoded with its siblings as one score the classifier splits.
      const merged = card.subtypeClassifier?.classes ?? [];
      const own = list(
        sp.classes,
        f('specialist.classes'),
        (x): x is ProductClass => isProductClass(x) && classes.includes(x) && !merged.includes(x),
        'the detector classes the subtype classifier does not split',
      );
      card.testTimeAugmentation.specialist = {
        ...onnxFile(sp.file, f('specialist.file')),
        classes: own,
        views:
          sp.views === undefined
            ? card.testTimeAugmentation.views
            : frameViews(sp.views, f('specialist.views')),
      };
    }
    if (tta.detector !== undefined) {
      const det = obj(tta.detector, f('detector'));
      card.testTimeAugmentation.detector = {
        ...onnxFile(det.file, f('detector.file')),
        score:
          det.score === undefined
            ? card.thresholds.score
            : num(det.score, f('detector.score'), 0, 1),
      };
    }
  }

  if (problems.length > 0) {
    throw new ModelError(`The model card ${cardPath} is invalid: ${problems.join('; ')}.`);
  }
  return card;
}

/** Product classes the card can detect, in product order. */
export function availableClasses(card: Pick<ModelCard, 'classes'>): ProductClass[] {
  return PRODUCT_CLASSES.filter((c) => card.classes.includes(c));
}
