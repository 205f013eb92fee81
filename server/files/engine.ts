/**
 * The one engine per application context. The engine is created lazily (opening the model is
 * slow and the API must start without it) from the server's configuration; a test or the CLI
 * may hand in an engine it already built. The engine module itself is imported on first use, so
 * the API starts (and its other routes work) even where the engine cannot load.
 */
import type * as EngineIndex from '../../engine/index.ts';
import type { AnalyseOptions, AnalysisOutput, MediaInfo } from '../../engine/index.ts';
import type { Config } from '../config.ts';

type EngineModule = typeof EngineIndex;

/** The part of the engine files and the queue use. */
export interface FileEngine {
  probe(file: string): Promise<MediaInfo>;
  analyse(file: string, options?: AnalyseOptions): Promise<AnalysisOutput>;
}

const engines = new WeakMap<object, Promise<FileEngine>>();

export function engineFor(app: { config: Config }): Promise<FileEngine> {
  let engine = engines.get(app);
  if (!engine) {
    const { config } = app;
    engine = loadEngineModule().then(({ createEngine }) =>
      createEngine({
        modelPath: config.model ?? undefined,
        sampleFps: config.fps,
        limits: {
          maxDurationS: config.maxVideoSeconds,
          timeoutMs: config.mediaTimeoutSeconds * 1000,
        },
      }),
    );
    // A failed start (model missing) must not stick: the next call tries again.
    engine.catch(() => engines.delete(app));
    engines.set(app, engine);
  }
  return engine;
}

export function setEngineFor(app: object, engine: FileEngine): void {
  engines.set(app, Promise.resolve(engine));
}

/** The engine's public module, imported lazily (see above). */
export function loadEngineModule(): Promise<EngineModule> {
  return import('../../engine/index.ts');
}
