/**
 * The one engine per application context. The engine is created lazily (opening the model is
 * slow and the API must start without it) from the server's configuration; a test or the CLI
 * may hand in an engine it already built. The engine module itself is imported on first use, so
 * the API starts (and its other routes work) even where the engine cannot load.
 *
 * By default (ANALYSIS_THREAD) the engine runs in a worker thread (engine-thread.ts):
 * onnxruntime-node's inference is synchronous, and in the main thread it held every other request
 * of the process (the files list went from ~6 ms to ~570 ms p50 while videos were analysed).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as EngineIndex from '../../engine/index.ts';
import type {
  AnalyseOptions,
  AnalysisOutput,
  Calibration,
  CorrectedStill,
  EngineOptions,
  MediaInfo,
} from '../../engine/index.ts';
import type { Config } from '../config.ts';
import type { ThreadError, ThreadReply, ThreadRequest } from './engine-thread.ts';

type EngineModule = typeof EngineIndex;

/** The part of the engine files and the queue use. */
export interface FileEngine {
  probe(file: string): Promise<MediaInfo>;
  analyse(file: string, options?: AnalyseOptions): Promise<AnalysisOutput>;
  /** Fits a location's calibration on corrected stills (the worker's calibration jobs). */
  calibrate?(
    stills: readonly CorrectedStill[],
    meta: { location: string; date: string; signal?: AbortSignal },
  ): Promise<Calibration>;
  /** Frees what the engine holds (its thread); calls after it fail. */
  close?(): Promise<void>;
}

const engines = new WeakMap<object, Promise<FileEngine>>();

export function engineFor(app: { config: Config }): Promise<FileEngine> {
  let engine = engines.get(app);
  if (!engine) {
    const { config } = app;
    const options: EngineOptions = {
      modelPath: config.model ?? undefined,
      sampleFps: config.fps,
      limits: {
        maxDurationS: config.maxVideoSeconds,
        timeoutMs: config.mediaTimeoutSeconds * 1000,
      },
    };
    engine = config.analysisThread
      ? startThreadEngine(options, () => engines.delete(app))
      : loadEngineModule().then(({ createEngine }) => createEngine(options));
    // A failed start (model missing) must not stick: the next call tries again.
    engine.catch(() => engines.delete(app));
    engines.set(app, engine);
  }
  return engine;
}

/** Stops the application's engine thread, if one was started (server shutdown). */
export async function closeEngineFor(app: object): Promise<void> {
  const engine = engines.get(app);
  engines.delete(app);
  const started = await engine?.catch(() => null);
  await started?.close?.();
}

export function setEngineFor(app: object, engine: FileEngine): void {
  engines.set(app, Promise.resolve(engine));
}

/** The engine's public module, imported lazily (see above). */
export function loadEngineModule(): Promise<EngineModule> {
  return import('../../engine/index.ts');
}

/** An engine error sent back by the thread, as the class it was (callers map classes). */
function rebuildError(mod: EngineModule, e: ThreadError): Error {
  if (e.name === 'MediaLimitError')
    return new mod.MediaLimitError(
      e.message,
      (e.limit ?? 'size') as ConstructorParameters<typeof mod.MediaLimitError>[1],
    );
  const cls = mod.ENGINE_ERROR_CLASSES.find((c) => c.name === e.name);
  if (cls && cls !== mod.MediaLimitError)
    return new (cls as new (message: string) => Error)(e.message);
  return Object.assign(new Error(e.message), { name: e.name, code: e.code });
}

/** The URL of tsx's ESM register API (the ESM build: the CommonJS one cannot run in the thread). */
function tsxEsmApi(): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (typeof resolve === 'function') {
    try {
      return resolve('tsx/esm/api');
    } catch {
      // fall through
    }
  }
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(path.join(path.dirname(pkg), 'dist', 'esm', 'api', 'index.mjs')).href;
}

/** Starts the engine thread; resolves once its engine is open, rejects when it cannot open. */
async function startThreadEngine(options: EngineOptions, onExit: () => void): Promise<FileEngine> {
  const mod = await loadEngineModule();
  // The thread loads TypeScript like the CLI does: tsx's loader first, then the module.
  const tsxApi = tsxEsmApi();
  const threadModule = new URL('./engine-thread.ts', import.meta.url).href;
  const worker = new Worker(
    `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(threadModule)}); });`,
    { eval: true, workerData: options },
  );
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let dead: Error | null = null;

  await new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: ThreadReply) => {
      if (reply.type === 'ready') {
        worker.unref(); // an idle thread never keeps the process alive
        return resolve();
      }
      if (reply.type === 'failed') {
        void worker.terminate();
        return reject(rebuildError(mod, reply.error));
      }
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if (reply.type === 'result') call.resolve(reply.result);
      else call.reject(rebuildError(mod, reply.error));
    });
    const fail = (err: Error): void => {
      dead ??= err;
      onExit(); // the next engineFor() starts a fresh thread
      reject(err);
      for (const call of pending.values()) call.reject(err);
      pending.clear();
    };
    worker.on('error', (err) => fail(err));
    worker.on('exit', (code) =>
      fail(new Error(`The analysis thread stopped (exit code ${code}).`)),
    );
  });

  const call = <T>(request: ThreadRequest, signal?: AbortSignal): Promise<T> => {
    if (dead) return Promise.reject(dead);
    return new Promise<T>((resolve, reject) => {
      pending.set(request.id, { resolve: resolve as (v: unknown) => void, reject });
      worker.ref(); // held while a call is in flight
      worker.postMessage(request);
      signal?.addEventListener(
        'abort',
        () => worker.postMessage({ type: 'cancel', id: request.id } satisfies ThreadRequest),
        { once: true },
      );
    });
  };

  return {
    async close() {
      dead ??= new Error('The analysis engine was closed.');
      await worker.terminate();
    },
    probe: (file) => call<MediaInfo>({ type: 'probe', id: nextId++, file }),
    calibrate: (stills, meta) =>
      call<Calibration>(
        {
          type: 'calibrate',
          id: nextId++,
          stills: [...stills],
          location: meta.location,
          date: meta.date,
        },
        meta.signal,
      ),
    async analyse(file, analyseOptions = {}) {
      if (analyseOptions.signal?.aborted)
        throw new mod.AnalysisCancelledError('The analysis was cancelled.');
      const result = await call<
        AnalysisOutput & {
          preview?: Uint8Array;
          honeybeePreview?: Uint8Array;
          hornetPreview?: { jpeg: Uint8Array; timeS: number };
        }
      >(
        {
          type: 'analyse',
          id: nextId++,
          file,
          keepPreviewFrame: !!analyseOptions.keepPreviewFrame,
          ...(analyseOptions.entrance ? { entrance: analyseOptions.entrance } : {}),
          ...(analyseOptions.calibration ? { calibration: analyseOptions.calibration } : {}),
        },
        analyseOptions.signal,
      );
      // Structured cloning hands Buffers back as plain Uint8Arrays.
      const asBuffer = (b: Uint8Array | undefined) =>
        b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : undefined;
      const preview = asBuffer(result.preview);
      const honeybeePreview = asBuffer(result.honeybeePreview);
      const hornet = result.hornetPreview;
      return {
        ...result,
        ...(preview ? { preview } : {}),
        ...(honeybeePreview ? { honeybeePreview } : {}),
        ...(hornet ? { hornetPreview: { jpeg: asBuffer(hornet.jpeg)!, timeS: hornet.timeS } } : {}),
      };
    },
  };
}
