/**
 * Loads the engine on demand: `--help`, `--version` and usage errors answer without loading
 * onnxruntime or the model.
 */
import type * as EngineIndex from '../../engine/index.ts';
import type * as EvalIndex from '../../engine/eval/index.ts';
import type { Engine } from '../../engine/index.ts';
import type { EngineFlags } from './options.ts';

export type EngineModule = typeof EngineIndex;

let modulePromise: Promise<EngineModule> | undefined;

export function loadEngineModule(): Promise<EngineModule> {
  modulePromise ??= import('../../engine/index.ts');
  return modulePromise;
}

export async function openEngine(
  flags: EngineFlags,
): Promise<{ engine: Engine; mod: EngineModule }> {
  const mod = await loadEngineModule();
  const engine = await mod.createEngine({
    modelPath: flags.model,
    sampleFps: flags.fps,
    threads: flags.threads,
  });
  return { engine, mod };
}

export type EvalModule = typeof EvalIndex;

/** The eval library (dataset readers, metrics, the production-path predictor). */
export function loadEvalModule(): Promise<EvalModule> {
  return import('../../engine/eval/index.ts');
}
