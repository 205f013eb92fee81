/**
 * An engine result for tests whose engine stands in for the real one (the queue's order, the
 * worker loop, re-counts): the fields the server stores, one bee on one frame unless told
 * otherwise. One factory, so a new field of AnalysisOutput is added here once.
 */
import type { AnalysisOutput, ClassCounts } from '../../engine/index.ts';

export const oneBee: ClassCounts = { bee: 1, pollen: 0, drone: 0, wasp: 0, hornet: 0 };

export function analysisResult(
  file: string,
  overrides: Partial<AnalysisOutput> = {},
): AnalysisOutput {
  return {
    file,
    media: {
      kind: 'video',
      format: 'mp4',
      width: 10,
      height: 10,
      durationS: 1,
      fps: 10,
      sizeBytes: 1,
    },
    counts: oneBee,
    frames: [{ index: 0, timeS: 0, detections: [], counts: oneBee, beeCoveragePct: 1 }],
    tracks: [],
    beeCoveragePct: 1,
    model: { name: 'm', version: '1', classes: ['bee'], inputWidth: 1, inputHeight: 1 },
    sampleFps: 5,
    zoom: 1,
    timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
    analysedAt: new Date().toISOString(),
    ...overrides,
  };
}
