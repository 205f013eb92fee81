// The quality grade from the engine's result to the stored summary, the file's detail JSON and
// the summary CSV's `quality` column (issue 42, item 6).
import { describe, expect, it } from 'vitest';
import { summaryCsv } from '../../engine/vocabulary.ts';
import type { AnalysisOutput } from '../../engine/index.ts';
import type { ResultQuality } from '../../engine/vocabulary.ts';
import { fileDetail } from './file-detail.ts';
import type { FileRow } from './file-row.ts';
import { resultColumns } from './results.ts';
import { summaryInput } from './summary.ts';

const quality: ResultQuality = {
  grade: 'uncertain',
  reason: 'Bees look much larger than in our training footage; counts may be off.',
  signals: {
    sizeRatio: 1.9,
    zoom: 0.53,
    scoreRatio: 2.4,
    weakShare: 0.3,
    sharpness: 0.1,
    brightness: 0.5,
    clippedShare: 0,
    shortTrackShare: null,
  },
};

const counts = { bee: 5, pollen: 1, drone: 0, wasp: null, hornet: 0 };
const result = {
  file: 'board.jpg',
  media: {
    kind: 'image',
    format: 'jpeg',
    width: 640,
    height: 480,
    durationS: 0,
    fps: 0,
    sizeBytes: 1,
  },
  counts,
  frames: [{ index: 0, timeS: 0, detections: [], counts, beeCoveragePct: 2 }],
  tracks: [],
  beeCoveragePct: 2,
  model: {
    name: 'm',
    version: '1',
    classes: ['bee', 'pollen', 'drone', 'hornet'],
    inputWidth: 1,
    inputHeight: 1,
  },
  sampleFps: 0,
  zoom: 0.53,
  timing: { decodeMs: 1, inferenceMs: 1, trackingMs: 0, totalMs: 2 },
  analysedAt: '2026-11-28T10:00:00.000Z',
  quality,
} satisfies AnalysisOutput;

function rowFor(output: AnalysisOutput): FileRow {
  const columns = resultColumns(output, null);
  return {
    id: 3,
    user_id: 1,
    original_name: 'board.jpg',
    stored_name: '0123456789abcdef0123456789abcdef.jpg',
    kind: 'image',
    format: 'jpeg',
    size_bytes: 1,
    description: '',
    location: 'North',
    status: 'PROCESSED',
    status_reason: null,
    status_time: '2026-11-28T10:00:00.000Z',
    created_at: '2026-11-28T10:00:00.000Z',
    processed_at: '2026-11-28T10:00:00.000Z',
    media_deleted_at: null,
    ...columns,
  };
}

describe('quality grade in the server', () => {
  it('is stored with the result and answered in the file detail as grade and reason', () => {
    const detail = fileDetail(rowFor(result), { includeResearch: false });
    expect(detail.quality).toEqual({ grade: 'uncertain', reason: quality.reason });
  });

  it('fills the summary CSV quality column', () => {
    const input = summaryInput(rowFor(result), false);
    const [header, row] = summaryCsv([input!]).trim().split('\n');
    const column = header!.split(',').indexOf('quality');
    expect(row!.split(',')[column]).toBe('uncertain');
  });

  it('stays empty for results analysed before grades', () => {
    const { quality: _quality, ...older } = result;
    expect(fileDetail(rowFor(older), { includeResearch: false }).quality).toBeNull();
    const [header, row] = summaryCsv([summaryInput(rowFor(older), false)!])
      .trim()
      .split('\n');
    expect(row!.split(',')[header!.split(',').indexOf('quality')]).toBe('');
  });
});
