/**
 * Reads and validates a model card (`NAME.card.json`, see models/README.md). Every field is
 * checked and every problem is named in one ModelError, so a broken card is fixed in one go.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ModelError } from '../errors.ts';
import { isProductClass, PRODUCT_CLASSES } from '../types.ts';
import type { MediaKind, ProductClass } from '../types.ts';
import { OUTPUT_FORMATS } from './adapters/index.ts';
import { viewAxes, VIEWS } from './test-time.ts';

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

// The card's one definition is the zod schema below: the engine validates with it, its types
// (ModelCard and the sections' cards) are inferred from it, and models/card.schema.json, which
// training/card.py validates each card against before writing it, is generated from it
// (`npm run card-schema`). The card's JSON is snake_case; the schema checks it as written (so
// problems name the fields the card's author sees) and transforms it, at the end, into the
// camelCase ModelCard.
//
// JSON Schema sees zod's own checks (types, ranges, enums, patterns, defaults) and not its
// refinements: where a refinement has a JSON Schema equivalent, `.meta` states it beside it from
// the same constants; rules between fields (crossFieldRules) are the engine's alone.

/** Checks that run even when some entry of their list or object failed (judging the rest). */
const whenValue = (ok: (value: unknown) => boolean) => ({
  when: (payload: { value: unknown }) => ok(payload.value),
});
const isObj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

type Camel<K> = K extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : K;
/** An object's own keys in camelCase (`max_crops` -> `maxCrops`); values as they are. */
const camel = <T extends object>(o: T) =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/_(.)/g, (_, c: string) => c.toUpperCase()), v]),
  ) as { [K in keyof T as Camel<K>]: T[K] };

const nonEmpty = 'must be a non-empty string';
// No check aborts (`abort: true`, z.int()): an aborted field stops crossFieldRules for the card.
const str = z.string({ error: nonEmpty }).regex(/\S/, nonEmpty);
const bool = z.boolean({ error: 'must be true or false' });
const channels = z.enum(['RGB', 'BGR'], { error: 'must be "RGB" or "BGR"' });
const freeform = z.record(z.string(), z.unknown(), { error: 'must be an object' });
const obj = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object(shape, { error: 'must be an object' });

function num(min: number, max: number, exclusiveMin = false) {
  const error = `must be a number in ${exclusiveMin ? '(' : '['}${min}, ${max}]`;
  const n = z.number({ error });
  return (exclusiveMin ? n.gt(min, error) : n.gte(min, error)).lte(max, error);
}
function int(min: number, max: number) {
  const error = `must be an integer in [${min}, ${max}]`;
  return z.number({ error }).multipleOf(1, error).gte(min, error).lte(max, error);
}
/** A non-empty array of distinct `values`, refused as a whole (`names`: the values allowed). */
function distinct<const T extends string>(values: readonly T[], names = values.join(', ')) {
  const error = `must be a non-empty array of distinct values from ${names}`;
  const valid = (v: unknown[]) =>
    v.every((x) => (values as readonly unknown[]).includes(x)) && new Set(v).size === v.length;
  return z
    .array(z.unknown(), { error })
    .min(1, error)
    .refine(valid, error)
    .meta({ items: { enum: values }, uniqueItems: true })
    .transform((v) => v as T[]);
}

/**
 * A model's `file`: an .onnx file named relative to the card. A blank name is `str`'s problem
 * alone; JSON Schema patterns have no flags.
 */
const onnxFile = str.regex(/^\s*$|\.[oO][nN][nN][xX]$/, 'must name an .onnx file');
const triple = (item: z.ZodType<number>) =>
  z.tuple([item, item, item], { error: 'must be an array of 3 numbers' });
/** x = (pixel * scale - mean[c]) / std[c] */
const normalization = obj({
  scale: num(0, 1e6, true),
  mean: triple(num(-1e6, 1e6)),
  std: triple(num(0, 1e6, true)),
});
const views = distinct(VIEWS)
  .refine((v) => v[0] === 'identity', 'must start with "identity"')
  .meta({ prefixItems: [{ const: 'identity' }] });
/**
 * Values in [0, 1] keyed by product class (`thresholds.per_class`, `detector_weight`). The
 * refinement checks the keys, each named in its own problem (a record keyed by the enum would
 * refuse the object as a whole), hence the cast.
 */
const byClass = z
  .record(z.string(), num(0, 1), { error: 'must be an object' })
  .superRefine((scores, ctx) => {
    for (const cls of Object.keys(scores).filter((key) => !isProductClass(key)))
      ctx.addIssue({ code: 'custom', path: [cls], message: 'is not a product class' });
  }, whenValue(isObj))
  .meta({ propertyNames: { enum: PRODUCT_CLASSES } }) as z.ZodType<
  Partial<Record<ProductClass, number>>
>;

const productClass = (error: string) => z.enum(PRODUCT_CLASSES, { error });
/** Names each entry of a list that repeats an earlier one (`nullsMayRepeat`: except nulls). */
const repeats =
  (nullsMayRepeat: boolean) =>
  <T>(list: T[], ctx: z.RefinementCtx<T[]>) =>
    list.forEach((c, i) => {
      if ((c !== null || !nullsMayRepeat) && list.indexOf(c) < i)
        ctx.addIssue({ code: 'custom', path: [i], message: `repeats ${JSON.stringify(c)}` });
    });
const noClasses = 'must be a non-empty array of product classes or null';
/**
 * Score channel i -> product class, or null for a channel the product ignores: every class once,
 * at least one.
 */
const detectorClasses = z
  .array(productClass(`must be one of ${PRODUCT_CLASSES.join(', ')} or null`).nullable(), {
    error: noClasses,
  })
  .min(1, noClasses)
  .max(1000, 'has too many channels')
  .superRefine(repeats(true), whenValue(Array.isArray))
  .refine(
    (classes) => classes.length === 0 || classes.some((c) => c !== null),
    'must map at least one channel to a product class',
  );
/** Output column j -> subtype or null ("not a honeybee"); each a detector class (a card rule). */
const subtypeClasses = z
  .array(productClass('must be one of the detector classes or null').nullable(), {
    error: 'must be an array of detector classes (and at most one null)',
  })
  .superRefine(repeats(false), whenValue(Array.isArray))
  .refine(
    (classes) => new Set(classes.filter(isProductClass)).size >= 2,
    'must name at least 2 of the detector classes',
  )
  .meta({ uniqueItems: true });

/** What every second-stage crop model's section shares (`subtype_classifier`, `box_refiner`). */
const cropInput = {
  name: str,
  /** Crops are `size` x `size`. */
  size: int(4, 1024),
  /** How far the crop reaches beyond the box (see `crop`). */
  context: num(0.5, 8),
  /**
   * How a crop model's input is cut around a box. `square` (default): a square of `context` x
   * the box's longer side, centred on the box; `box`: `context` x each side of the box,
   * stretched to a square.
   */
  crop: z.enum(['square', 'box'], { error: 'must be "square" or "box"' }).default('square'),
  channels,
};
const cropModel = {
  file: onnxFile,
  input: obj(cropInput),
  normalization,
  output: obj({ name: str }),
  /** Most crops run per frame, best detections first (bounds the cost). */
  max_crops: int(1, 100_000).default(256),
  metrics: freeform.optional(),
  training: freeform.optional(),
};
/**
 * A second model that re-types each honeybee the detector finds (worker, pollen, drone) from a
 * crop around it. Its classes must be classes of the detector: their score channels are summed
 * into one honeybee score, which the classifier's probability then divides among them.
 */
const subtypeClassifier = obj({
  ...cropModel,
  input: obj({
    ...cropInput,
    /**
     * Crops are cut from the source decoded at up to `detail` x the detector's input size (never
     * beyond the source's own pixels), so the classifier sees more of each bee than the detector
     * did. Photos only: a frame decoded twice is cheap once, not 30 times a second.
     */
    detail: int(1, 4).default(1),
  }),
  classes: subtypeClasses,
  /**
   * Weight of the detector's own subtype split against the classifier's (0: classifier only):
   * one number, or one per class.
   */
  detector_weight: z
    .union([num(0, 1), byClass], { error: 'must be a number in [0, 1] or one per class' })
    .default(0),
});
const noRefined = 'must be a non-empty array of detector classes';
/**
 * A second model that redraws the boxes of some classes' detections from a crop around each
 * (after the subtype classifier, which crops around the detector's own boxes).
 */
const boxRefiner = obj({
  ...cropModel,
  /** The detector classes whose boxes it redraws (default: all of them). */
  classes: z
    .array(productClass('must be one of the detector classes'), { error: noRefined })
    .min(1, noRefined)
    .optional(),
});

const cardFields = obj({
  name: str,
  version: str,
  /** ONNX file name, relative to the card. */
  file: onnxFile,
  classes: detectorClasses,
  input: obj({
    name: str,
    width: int(1, 8192),
    height: int(1, 8192),
    dynamic: bool,
    stride: int(1, 1024),
    channels,
    /**
     * How far a source smaller than width x height may be enlarged (default 1: never). The
     * model learnt insects at their own pixel sizes; blowing a 180x300 close-up up to 544 px
     * tall shows it a bee larger than anything it was trained on.
     */
    max_upscale: num(1, 16).default(1),
    /** Decode again at another scale when the honeybees are off the learnt size (`zoom.ts`). */
    auto_zoom: obj({
      /**
       * The `quantile` of honeybee sizes (square root of box area) the detector learnt, in its
       * input pixels. An upper quantile: bees half hidden in the entrance slot have small boxes
       * at any zoom.
       */
      insect_px: num(1, 1000),
      quantile: num(0, 1),
      /** Fewest honeybees, at the card's thresholds, that a zoom may be judged from. */
      min_insects: int(1, 10_000),
      /** Sizes within this factor of `insect_px` either way are left alone (e.g. 1.25). */
      tolerance: num(1, 10),
      /** Smallest and largest zoom applied to the detector's usual input size. */
      min: num(0.1, 1),
      max: num(1, 4),
    })
      .transform(camel)
      .optional(),
  }),
  normalization,
  output: obj({
    name: str,
    format: z.enum(OUTPUT_FORMATS as [string, ...string[]], {
      error: ({ input }) =>
        typeof input === 'string' && input.trim() !== ''
          ? `must be one of ${OUTPUT_FORMATS.join(', ')} (got "${input}")`
          : nonEmpty,
    }),
  }),
  thresholds: obj({
    score: num(0, 1),
    nms_iou: num(0, 1),
    per_class: byClass.optional(),
    /**
     * Per class, the median score a video track's hits need for it to count as an insect once it
     * has moved, where frames get the card's detector alone (no test-time views):
     * `Detector.trackScores`.
     */
    track_score: byClass.optional(),
    /**
     * Per class, the overlap above which a typed box of the class suppresses its weaker twin,
     * where frames get the card's detector alone (no test-time views): `Detector.detect`.
     */
    typed_nms_iou: byClass.optional(),
    /**
     * Per class, the score a box needs to count towards an alert that wakes a beekeeper (a hornet
     * track seen at it on several frames): chosen above every score the class reaches on the
     * cameras' training frames, so higher than the display threshold, which is tuned for counting.
     */
    alert: byClass.optional(),
  }).transform(camel),
  metrics: freeform.optional(),
  training: freeform.optional(),
  limitations: z
    .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
    .optional(),
  subtype_classifier: subtypeClassifier.optional(),
  box_refiner: boxRefiner.optional(),
  /**
   * Mirrored or turned views the detector also runs, and fuses, on the media named
   * (test-time.ts).
   */
  test_time_augmentation: obj({
    /** Views run on every frame of those media, `identity` first. */
    views,
    /**
     * Views of each honeybee's crop the subtype classifier sees, its answers averaged (`identity`
     * first). All crops go in one run, but each view still costs a crop.
     */
    crop_views: views.default(['identity']),
    /** Which media get them (a photo is one frame, a video hundreds: it costs a pass per view). */
    media: distinct<MediaKind>(['image', 'video']),
    /** IoU at which two views' boxes are one insect. */
    match_iou: num(0, 1, true),
    /** Score floor at which the views are decoded before fusing (below every class threshold). */
    floor: num(0, 1).default(0.01),
    /**
     * Whether the box refiner still redraws fused boxes. The mean of the views' boxes is already
     * a second look; a refiner trained on single-view boxes can move it off the insect.
     */
    refine: bool.default(true),
    /**
     * A subtype classifier used on those media instead of the card's own (same classes): one
     * that costs more per bee, or needs a detail frame (`input.detail`), than every frame of a
     * video can pay for.
     */
    subtype_classifier: subtypeClassifier.optional(),
    /**
     * A second detector run on the views whose candidates replace the card's own for its
     * `classes`: a network trained with more of those classes' data that lost the others, so it
     * answers only for them (photos can pay for two passes per view; video frames cannot). It is
     * read exactly as the card's detector is (input, normalisation, output format, thresholds).
     */
    specialist: obj({
      file: onnxFile,
      /** Never the honeybee classes a classifier splits. */
      classes: distinct(
        PRODUCT_CLASSES,
        'the detector classes the subtype classifier does not split',
      ),
      /**
       * The views it runs on, its candidates fused over them (default: the card's `views`). It
       * answers for few classes, so photos can pay for more of its views than of the detector's.
       */
      views: views.optional(),
    }).optional(),
    /**
     * A detector run on those media in the card's own place: a wider network than a video's
     * hundreds of frames can pay for (a photo is one frame). It is read exactly as the card's
     * detector is (input, normalisation, output format, per-class thresholds, views), with its
     * own default `score` threshold (default: the card's), chosen for it; video frames keep the
     * card's detector.
     */
    detector: obj({ file: onnxFile, score: num(0, 1).optional() }).optional(),
  }).optional(),
}).meta({
  title: 'Hivesight model card',
  description:
    'NAME.card.json beside NAME.onnx (models/README.md). Generated from the zod schema in ' +
    'engine/detection/model-card.ts by `npm run card-schema`: edit that, not this file. The ' +
    'engine also checks rules between fields that this schema does not state.',
});
type CardFields = z.output<typeof cardFields>;
type SubtypeClassifierFields = z.output<typeof subtypeClassifier>;
type TestTimeFields = NonNullable<CardFields['test_time_augmentation']>;

/**
 * Rules between fields. Each runs once the fields it reads parsed, whatever else failed, so one
 * error still lists every problem it can judge.
 */
function crossFieldRules(card: CardFields, ctx: z.RefinementCtx<CardFields>): void {
  const failed = ctx.issues.map((issue) => issue.path ?? []);
  /** Nothing failed at these fields or above them (a list's entries may have: rules check each). */
  const parsed = (...fields: string[]) =>
    fields.every((f) => !failed.some((path) => path.every((key, i) => key === f.split('.')[i])));
  const bad = (field: string, message: string, ...entry: PropertyKey[]) =>
    ctx.addIssue({ code: 'custom', path: [...field.split('.'), ...entry], message });
  const undetected = (c: unknown) =>
    parsed('classes') && isProductClass(c) && !card.classes.includes(c);
  const { input, subtype_classifier: sc, box_refiner: refiner, test_time_augmentation: tta } = card;

  if (parsed('input.dynamic') && input.auto_zoom !== undefined && !input.dynamic) {
    bad('input.auto_zoom', 'needs a dynamic input (input.dynamic true)');
  }
  if (parsed('input.dynamic', 'input.width', 'input.height', 'input.stride') && input.dynamic) {
    for (const side of ['width', 'height'] as const) {
      if (input[side] % input.stride !== 0) {
        bad(`input.${side}`, `must be a multiple of input.stride (${input.stride})`);
      }
    }
  }
  // A turned frame swaps its sides, which a fixed oblong input cannot take.
  const oblong =
    parsed('input.dynamic', 'input.width', 'input.height') &&
    !input.dynamic &&
    input.width !== input.height;
  const frameViews = { views: tta?.views, 'specialist.views': tta?.specialist?.views };
  for (const [key, views] of Object.entries(frameViews)) {
    const field = `test_time_augmentation.${key}`;
    if (oblong && parsed(field) && views?.some((view) => viewAxes(view).t)) {
      bad(
        field,
        'may turn the frame (transpose, rotate_90, rotate_270, transverse) only for a dynamic or square input',
      );
    }
  }
  const swapped = tta?.subtype_classifier;
  const classifiers = {
    subtype_classifier: sc,
    'test_time_augmentation.subtype_classifier': swapped,
  };
  for (const [field, classifier] of Object.entries(classifiers)) {
    if (!parsed(`${field}.classes`)) continue;
    classifier?.classes.forEach((c, i) => {
      if (undetected(c)) bad(`${field}.classes`, 'must be one of the detector classes or null', i);
    });
  }
  // A video's frames are decoded once, at the detector's size (the video speed targets).
  if (parsed('subtype_classifier.input.detail') && (sc?.input.detail ?? 1) > 1) {
    bad(
      'subtype_classifier.input.detail',
      'must be 1: detail crops are for photos (name that classifier in test_time_augmentation.subtype_classifier with media ["image"])',
    );
  }
  // The detector decodes the classifier's classes as one honeybee score: both must agree.
  const typed = (c?: SubtypeClassifierFields) => c?.classes.filter((x) => x !== null).join();
  if (
    swapped &&
    parsed('subtype_classifier.classes', 'test_time_augmentation.subtype_classifier.classes') &&
    typed(sc) !== typed(swapped)
  ) {
    bad(
      'test_time_augmentation.subtype_classifier.classes',
      "must be the card's subtype_classifier.classes",
    );
  }
  if (
    parsed(
      'test_time_augmentation.media',
      'test_time_augmentation.subtype_classifier.input.detail',
    ) &&
    (swapped?.input.detail ?? 1) > 1 &&
    tta?.media.join() !== 'image'
  ) {
    bad('test_time_augmentation.subtype_classifier.input.detail', 'above 1 needs media ["image"]');
  }
  // A honeybee class's channel is decoded with its siblings as one score the classifier splits.
  if (
    parsed('subtype_classifier.classes', 'test_time_augmentation.specialist.classes') &&
    tta?.specialist?.classes.some((c) => undetected(c) || sc?.classes.includes(c))
  ) {
    bad(
      'test_time_augmentation.specialist.classes',
      'must be a non-empty array of distinct values from the detector classes the subtype classifier does not split',
    );
  }
  if (parsed('box_refiner.classes')) {
    refiner?.classes?.forEach((c, i) => {
      if (undetected(c)) bad('box_refiner.classes', 'must be one of the detector classes', i);
    });
  }
}

/** The parsed card in the engine's camelCase, its model files resolved relative to the card. */
function toModelCard(card: CardFields, cardPath: string) {
  /** `modelPath`: the absolute path of the ONNX file. */
  const onnx = (file: string) => ({ file, modelPath: path.resolve(path.dirname(cardPath), file) });
  const cropModel = <T extends CardFields['box_refiner'] & object>(section: T) => ({
    ...camel(section),
    ...onnx(section.file),
  });
  const subtypeClassifier = (sc: SubtypeClassifierFields) => {
    const { classes: columns, detector_weight: weight, input, ...model } = sc;
    const { detail, ...cropInput } = input;
    /** The types it tells apart, each one of the detector's classes. */
    const classes = columns.filter((c) => c !== null);
    const none = columns.indexOf(null);
    return {
      ...cropModel({ ...model, input: cropInput }),
      classes,
      /** Output column of each type (`classes[j]` is column `typeColumns[j]`). */
      typeColumns: columns.flatMap((c, i) => (c === null ? [] : [i])),
      /**
       * Output column of "not a honeybee" (a `null` in the card's classes), or null when the
       * model has none. Its probability scales the honeybee score down: a second opinion.
       */
      noneColumn: none < 0 ? null : none,
      /** Output columns in all. */
      columns: columns.length,
      /** Per class (in `classes` order): the card's `detector_weight`. */
      detectorWeights: classes.map((c) => (typeof weight === 'number' ? weight : (weight[c] ?? 0))),
      detail,
    };
  };
  const {
    subtype_classifier: sc,
    box_refiner: refiner,
    test_time_augmentation: tta,
    ...fields
  } = card;
  // Optional sections are spread in (`...(x && { key })`): their keys are optional in ModelCard.
  const testTime = ({
    subtype_classifier: swapped,
    specialist,
    detector,
    ...section
  }: TestTimeFields) => ({
    ...camel(section),
    ...(swapped && { subtypeClassifier: subtypeClassifier(swapped) }),
    ...(specialist && {
      specialist: {
        ...onnx(specialist.file),
        classes: specialist.classes,
        views: specialist.views ?? section.views,
      },
    }),
    ...(detector && {
      detector: { ...onnx(detector.file), score: detector.score ?? card.thresholds.score },
    }),
  });
  return {
    ...camel(fields),
    ...onnx(card.file),
    input: camel(card.input),
    ...(sc && { subtypeClassifier: subtypeClassifier(sc) }),
    ...(refiner && {
      boxRefiner: {
        ...cropModel(refiner),
        classes: [...new Set(refiner.classes ?? card.classes.filter((c) => c !== null))],
      },
    }),
    ...(tta && { testTimeAugmentation: testTime(tta) }),
    /** Absolute path of the card file. */
    cardPath,
  };
}

/** The whole card: its fields, the rules between them, and the engine's camelCase form. */
const modelCard = (cardPath: string) =>
  cardFields
    .superRefine(crossFieldRules, whenValue(isObj))
    .transform((card) => toModelCard(card, cardPath));

/** The card as the engine uses it: camelCase, defaults filled in, model files resolved. */
export type ModelCard = z.output<ReturnType<typeof modelCard>>;
export type AutoZoomCard = NonNullable<ModelCard['input']['autoZoom']>;
export type SubtypeClassifierCard = NonNullable<ModelCard['subtypeClassifier']>;
export type BoxRefinerCard = NonNullable<ModelCard['boxRefiner']>;
/** What every second-stage crop model's card says (`subtype_classifier`, `box_refiner`). */
export type CropModelCard = Omit<BoxRefinerCard, 'classes'>;
export type CropShape = CropModelCard['input']['crop'];
export type TestTimeAugmentationCard = NonNullable<ModelCard['testTimeAugmentation']>;
export type SpecialistCard = NonNullable<TestTimeAugmentationCard['specialist']>;
export type TestTimeDetectorCard = NonNullable<TestTimeAugmentationCard['detector']>;

/** A problem's field as the card writes it: `input.width`, `classes[2]`, `card` for the whole. */
const fieldName = (path: readonly PropertyKey[]) =>
  path
    .map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`))
    .join('')
    .slice(1) || 'card';

/** Validates parsed card JSON; throws one ModelError listing every bad field. */
export function validateModelCard(json: unknown, cardPath: string): ModelCard {
  const result = modelCard(cardPath).safeParse(json);
  if (result.success) return result.data;
  // A number can fail two of its checks with one message (an integer far out of range).
  const problems = new Set(
    result.error.issues.map((issue) => `${fieldName(issue.path)} ${issue.message}`),
  );
  throw new ModelError(`The model card ${cardPath} is invalid: ${[...problems].join('; ')}.`);
}

/**
 * The card's JSON Schema (draft 2020-12) as `models/card.schema.json` holds it: what a card may
 * say as written, before the engine's defaults and its rules between fields.
 */
export function modelCardJsonSchemaText(): string {
  return `${JSON.stringify(z.toJSONSchema(cardFields, { io: 'input', target: 'draft-2020-12' }), null, 2)}\n`;
}

/** Product classes the card can detect, in product order. */
export function availableClasses(card: Pick<ModelCard, 'classes'>): ProductClass[] {
  return PRODUCT_CLASSES.filter((c) => card.classes.includes(c));
}
