/**
 * The engine's public API, with onnxruntime and ffmpeg behind it. Code outside engine/ imports
 * from here or, for types, errors and report helpers alone, from the light `vocabulary.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyseFile, DEFAULT_SAMPLE_FPS } from './analyse.ts';
import type { AnalyseOptions, AnalysisOutput } from './analyse.ts';
import { Detector } from './detection/detector.ts';
import { DEFAULT_LIMITS } from './media/limits.ts';
import type { MediaLimits } from './media/limits.ts';
import { probeMedia } from './media/probe.ts';
import { resolveMediaTools } from './media/tools.ts';
import type { MediaTools } from './media/tools.ts';
import type { MediaInfo } from './types.ts';
import { calibrateStills } from './calibration/calibrate.ts';
import type { CorrectedStill } from './calibration/calibrate.ts';
import type { Calibration } from './calibration/calibration.ts';

export * from './vocabulary.ts';
export type { AnalyseOptions, AnalysisOutput } from './analyse.ts';
export { DEFAULT_SAMPLE_FPS } from './analyse.ts';
export type { MediaLimits } from './media/limits.ts';
export type { CorrectedStill } from './calibration/calibrate.ts';
export { DEFAULT_LIMITS } from './media/limits.ts';
export type { MediaTools } from './media/tools.ts';
export { resolveMediaTools } from './media/tools.ts';
export { Detector } from './detection/detector.ts';
export { iou } from './detection/nms.ts';
export { loadModelCard, modelCardJsonSchemaText } from './detection/model-card.ts';
export type { ModelCard } from './detection/model-card.ts';
export * from './reports/index.ts';
export * from './eval/index.ts';
export * from './traffic/index.ts';
export * from './quality/index.ts';
export * from './tracking/index.ts';

/** The model shipped in `models/`, used when nobody names another. */
export const DEFAULT_MODEL_PATH = fileURLToPath(
  new URL('../models/hivesight-detector.card.json', import.meta.url),
);

/** The model card's JSON Schema, generated from its zod schema (`npm run card-schema`). */
export const MODEL_CARD_SCHEMA_PATH = fileURLToPath(
  new URL('../models/card.schema.json', import.meta.url),
);

export interface EngineOptions {
  /** Model card (or ONNX file with its card beside it). Default: the shipped model. */
  modelPath?: string;
  /** ffmpeg / ffprobe locations. Default: resolved from FFMPEG_PATH, ffmpeg-static, PATH. */
  tools?: MediaTools;
  limits?: Partial<MediaLimits>;
  /** Analysed frames per second of video. */
  sampleFps?: number;
  /** onnxruntime intra-op threads. */
  threads?: number;
}

export interface Engine {
  readonly detector: Detector;
  readonly tools: MediaTools;
  readonly limits: MediaLimits;
  probe(file: string): Promise<MediaInfo>;
  analyse(file: string, options?: AnalyseOptions): Promise<AnalysisOutput>;
  /** Fits a location's calibration on its corrected stills (issue 58). */
  calibrate(
    stills: readonly CorrectedStill[],
    meta: { location: string; date: string; signal?: AbortSignal },
  ): Promise<Calibration>;
}

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const tools = options.tools ?? resolveMediaTools();
  const limits: MediaLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const detector = await Detector.open(path.resolve(options.modelPath ?? DEFAULT_MODEL_PATH), {
    threads: options.threads,
  });
  const sampleFps = options.sampleFps ?? DEFAULT_SAMPLE_FPS;
  return {
    detector,
    tools,
    limits,
    probe: (file) => probeMedia(file, { tools, limits }),
    analyse: (file, analyseOptions = {}) =>
      analyseFile(file, { detector, tools, limits }, { sampleFps, ...analyseOptions }),
    calibrate: async (stills, meta) =>
      (await calibrateStills({ detector, tools, limits }, stills, meta)).calibration,
  };
}
