/**
 * The analysis engine in a worker thread (see engine.ts). onnxruntime-node runs inference
 * synchronously on the calling thread, so analysing in the server's main thread held every other
 * request of the process until the frame was done. Here the thread owns the engine; the main
 * thread sends probe / analyse requests and gets the result or an error back ({ name, code,
 * message, limit }), and can cancel a running analysis.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Calibration, CorrectedStill, EngineOptions, Entrance } from '../../engine/index.ts';
import { createEngine } from '../../engine/index.ts';

export type ThreadRequest =
  | { type: 'probe'; id: number; file: string }
  | {
      type: 'analyse';
      id: number;
      file: string;
      keepPreviewFrame: boolean;
      entrance?: Entrance;
      calibration?: Calibration;
    }
  | { type: 'calibrate'; id: number; stills: CorrectedStill[]; location: string; date: string }
  | { type: 'cancel'; id: number };

export interface ThreadError {
  name: string;
  code?: string;
  message: string;
  limit?: string;
}

export type ThreadReply =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; error: ThreadError };

export function toThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const { code, limit } = err as { code?: unknown; limit?: unknown };
  return {
    name: err.name,
    message: err.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof limit === 'string' ? { limit } : {}),
  };
}

const port = parentPort;
if (port) {
  const controllers = new Map<number, AbortController>();
  const send = (reply: ThreadReply): void => port.postMessage(reply);
  createEngine(workerData as EngineOptions).then(
    (engine) => {
      port.on('message', (msg: ThreadRequest) => {
        if (msg.type === 'cancel') {
          controllers.get(msg.id)?.abort();
          return;
        }
        const controller = new AbortController();
        controllers.set(msg.id, controller);
        const work: Promise<unknown> =
          msg.type === 'probe'
            ? engine.probe(msg.file)
            : msg.type === 'calibrate'
              ? engine.calibrate(msg.stills, {
                  location: msg.location,
                  date: msg.date,
                  signal: controller.signal,
                })
              : engine.analyse(msg.file, {
                  keepPreviewFrame: msg.keepPreviewFrame,
                  signal: controller.signal,
                  ...(msg.entrance ? { entrance: msg.entrance } : {}),
                  ...(msg.calibration ? { calibration: msg.calibration } : {}),
                });
        work
          .then(
            (result) => send({ type: 'result', id: msg.id, result }),
            (err: unknown) => send({ type: 'error', id: msg.id, error: toThreadError(err) }),
          )
          .finally(() => controllers.delete(msg.id));
      });
      send({ type: 'ready' });
    },
    (err: unknown) => send({ type: 'failed', error: toThreadError(err) }),
  );
}
