/** The onnxruntime side of the model: what the detector needs of a session. */
import * as ort from 'onnxruntime-node';

/** The part of an onnxruntime session the engine uses (a test can wrap the real one). */
export interface DetectorSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, ort.Tensor>): Promise<Record<string, ort.OnnxValue>>;
  release(): Promise<void>;
}

export type SessionFactory = (
  modelPath: string,
  options: ort.InferenceSession.SessionOptions,
) => Promise<DetectorSession>;

export const defaultSessionFactory: SessionFactory = (modelPath, options) =>
  ort.InferenceSession.create(modelPath, options);

export function sessionOptions(threads: number): ort.InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    // Idle pool threads sleep instead of spinning. Spinning workers burn the cores that
    // ffmpeg (decoding the next frame) and everything else on the machine need: on 2 busy
    // cores it made a frame ~2x slower than a single thread.
    extra: {
      session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } },
    },
  };
}

/** A session made on first use, once; a failed load is not kept, so the next use tries again. */
export class LazySession {
  private pending: Promise<DetectorSession> | undefined;

  constructor(private readonly open: () => Promise<DetectorSession>) {}

  get(): Promise<DetectorSession> {
    if (!this.pending) {
      const pending = this.open();
      this.pending = pending;
      pending.catch(() => {
        if (this.pending === pending) this.pending = undefined;
      });
    }
    return this.pending;
  }

  async release(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) await (await pending.catch(() => undefined))?.release();
  }
}
