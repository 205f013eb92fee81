/**
 * Reads and validates a model card (`NAME.card.json`, see models/README.md). Every field is
 * checked and every problem is named in one ModelError, so a broken card is fixed in one go.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ModelError } from '../errors.ts';
import { isProductClass, PRODUCT_CLASSES } from '../types.ts';
import type { ProductClass } from '../types.ts';
import { OUTPUT_FORMATS } from './adapters/index.ts';

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
  try {
    if (!(await stat(card.modelPath)).isFile()) throw new Error('not a file');
  } catch {
    throw new ModelError(`The model file named by ${cardPath} does not exist: ${card.modelPath}`);
  }
  return card;
}

// The card's one definition is the zod schema below: the engine validates with it, its type
// (ModelCard) is inferred from it, and models/card.schema.json, which
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
/** An object's own keys in camelCase (`nms_iou` -> `nmsIou`); values as they are. */
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
/**
 * The model's `file`: an .onnx file named relative to the card. A blank name is `str`'s problem
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
/**
 * Values in [0, 1] keyed by product class (`thresholds.per_class` and the like). The
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
/** Names each entry of a list, but null, that repeats an earlier one. */
const repeats = <T>(list: T[], ctx: z.RefinementCtx<T[]>) =>
  list.forEach((c, i) => {
    if (c !== null && list.indexOf(c) < i)
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
  .superRefine(repeats, whenValue(Array.isArray))
  .refine(
    (classes) => classes.length === 0 || classes.some((c) => c !== null),
    'must map at least one channel to a product class',
  );

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
     * has moved (the tracker's `countScore`, `trackerOptionsFor`).
     */
    track_score: byClass.optional(),
    /**
     * Per class, an overlap lower than `nms_iou` above which a box of the class suppresses its
     * weaker twin (`Detector.detect`).
     */
    typed_nms_iou: byClass.optional(),
    /**
     * Per class, the score a box needs to count towards an alert that wakes a beekeeper (a hornet
     * track seen at it on several frames): chosen above every score the class reaches on the
     * cameras' training frames, so higher than the display threshold, which is tuned for counting.
     */
    alert: byClass.optional(),
    /**
     * A hornet is about twice a honeybee's length: on a frame with at least `min_honeybees` shown
     * honeybees, a box typed hornet smaller than `min_ratio` x their median size is a honeybee
     * the network mistyped (`hornet-size.ts`).
     */
    hornet_size: obj({
      min_ratio: num(1, 10),
      min_honeybees: int(1, 10_000),
    })
      .transform(camel)
      .optional(),
  }).transform(camel),
  metrics: freeform.optional(),
  training: freeform.optional(),
  limitations: z
    .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
    .optional(),
}).meta({
  title: 'Hivesight model card',
  description:
    'NAME.card.json beside NAME.onnx (models/README.md). Generated from the zod schema in ' +
    'engine/detection/model-card.ts by `npm run card-schema`: edit that, not this file. The ' +
    'engine also checks rules between fields that this schema does not state.',
});
type CardFields = z.output<typeof cardFields>;

/**
 * Rules between fields. Each runs once the fields it reads parsed, whatever else failed, so one
 * error still lists every problem it can judge.
 */
function crossFieldRules(card: CardFields, ctx: z.RefinementCtx<CardFields>): void {
  const failed = ctx.issues.map((issue) => issue.path ?? []);
  /** Nothing failed at these fields or above them (a list's entries may have: rules check each). */
  const parsed = (...fields: string[]) =>
    fields.every((f) => !failed.some((path) => path.every((key, i) => key === f.split('.')[i])));
  const bad = (field: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: field.split('.'), message });
  const { input } = card;

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
}

/** The parsed card in the engine's camelCase, its model file resolved relative to the card. */
function toModelCard(card: CardFields, cardPath: string) {
  return {
    ...camel(card),
    input: camel(card.input),
    /** Absolute path of the ONNX file. */
    modelPath: path.resolve(path.dirname(cardPath), card.file),
    /** Absolute path of the card file. */
    cardPath,
  };
}

/** The whole card: its fields, the rules between them, and the engine's camelCase form. */
const modelCard = (cardPath: string) =>
  cardFields
    .superRefine(crossFieldRules, whenValue(isObj))
    .transform((card) => toModelCard(card, cardPath));

/** The card as the engine uses it: camelCase, defaults filled in, model file resolved. */
export type ModelCard = z.output<ReturnType<typeof modelCard>>;
export type AutoZoomCard = NonNullable<ModelCard['input']['autoZoom']>;

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
