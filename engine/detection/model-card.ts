/**
 * Reads and validates a model card (`NAME.card.json`, see models/README.md): the data the engine
 * needs to run one detector (identity, classes, input, normalisation, output layout,
 * thresholds) and what a reader needs to trust it (metrics, training, limitations). Every field
 * is checked and every problem is named in one ModelError, so a broken card is fixed in one go.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelError } from '../errors.ts';
import { isProductClass, PRODUCT_CLASSES } from '../types.ts';
import type { ProductClass } from '../types.ts';
import { OUTPUT_FORMATS } from './adapters/index.ts';

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
     * model learnt insects at their own pixel sizes; blowing a small close-up up shows it a bee
     * larger than anything it was trained on.
     */
    maxUpscale: number;
  };
  normalization: { scale: number; mean: [number, number, number]; std: [number, number, number] };
  output: { name: string; format: string };
  thresholds: {
    score: number;
    nms_iou: number;
    per_class?: Partial<Record<ProductClass, number>>;
    /**
     * Per class, the median score a video track's hits need for it to count as an insect once it
     * has moved (the tracker's `countScore`).
     */
    track_score?: Partial<Record<ProductClass, number>>;
    /** Per class, the score a track's hits must keep for an alert (hornets). */
    alert?: Partial<Record<ProductClass, number>>;
  };
  metrics?: Record<string, unknown>;
  training?: Record<string, unknown>;
  limitations?: string[];
  /** Absolute path of the card file. */
  cardPath: string;
  /** Absolute path of the ONNX file. */
  modelPath: string;
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
  try {
    if (!(await stat(card.modelPath)).isFile()) throw new Error('not a file');
  } catch {
    throw new ModelError(`The model file named by ${cardPath} does not exist: ${card.modelPath}`);
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

  /** A model's `file` field: an .onnx file named relative to the card, and its absolute path. */
  const onnxFile = (v: unknown, field: string): { file: string; modelPath: string } => {
    const file = str(v, field);
    if (file && !file.toLowerCase().endsWith('.onnx')) bad(field, 'must name an .onnx file');
    return { file, modelPath: path.resolve(path.dirname(cardPath), file) };
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
  const scoresByClass = (key: 'per_class' | 'track_score' | 'alert') => {
    const scores: Partial<Record<ProductClass, number>> = {};
    for (const [cls, value] of Object.entries(obj(thr[key], `thresholds.${key}`))) {
      if (!isProductClass(cls)) bad(`thresholds.${key}.${cls}`, 'is not a product class');
      else scores[cls] = num(value, `thresholds.${key}.${cls}`, 0, 1);
    }
    return scores;
  };
  if (thr.per_class !== undefined) thresholds.per_class = scoresByClass('per_class');
  if (thr.track_score !== undefined) thresholds.track_score = scoresByClass('track_score');
  if (thr.alert !== undefined) thresholds.alert = scoresByClass('alert');

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

  if (problems.length > 0) {
    throw new ModelError(`The model card ${cardPath} is invalid: ${problems.join('; ')}.`);
  }
  return card;
}

/** Product classes the card can detect, in product order. */
export function availableClasses(card: Pick<ModelCard, 'classes'>): ProductClass[] {
  return PRODUCT_CLASSES.filter((c) => card.classes.includes(c));
}
