/**
 * Loads the engine on demand: `--help`, `--version` and usage errors answer without loading
 * onnxruntime or the model.
 */
import type * as EngineIndex from '../../engine/index.ts';
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

/** The eval library (dataset readers, metrics, the production-path predictor) is the engine's. */
export function loadEvalModule(): Promise<EngineModule> {
  return loadEngineModule();
}
