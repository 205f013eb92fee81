import { describe, expect, it } from 'vitest';
import type { AnalysisResult, ClassCounts, FrameResult } from '../types.ts';
import { csvFixed, csvText, writeCsv } from './csv.ts';
import { FRAME_CSV_COLUMNS, frameCsv } from './frame-csv.ts';
import { SUMMARY_CSV_COLUMNS, summaryCsv } from './summary-csv.ts';

const counts = (
  bee: number,
  pollen: number,
  drone: number,
  hornet: number | null = 0,
): ClassCounts => ({
  bee,
  pollen,
  drone,
  wasp: null,
  hornet,
});
const frame = (index: number, timeS: number, c: ClassCounts, cov: number): FrameResult => ({
  index,
  timeS,
  detections: [],
  counts: c,
  beeCoveragePct: cov,
});

describe('frameCsv', () => {
  const result = {
    frames: [frame(0, 0, counts(3, 1, 0, 2), 12.3456), frame(1, 0.2, counts(0, 0, 0), 0)],
  };

  it('has the decided columns, with empty cells for unavailable classes', () => {
    expect(FRAME_CSV_COLUMNS.join(',')).toBe(
      'frame,time_s,bees,pollen_bees,drones,wasps,hornets,bee_coverage_pct',
    );
    expect(frameCsv(result, { includeResearch: true })).toBe(
      'frame,time_s,bees,pollen_bees,drones,wasps,hornets,bee_coverage_pct\n' +
        '0,0.000,3,1,0,,2,12.35\n' +
        '1,0.200,0,0,0,,0,0.00\n',
    );
  });

  it('leaves out wasps and hornets without the research plan', () => {
    expect(frameCsv(result, { includeResearch: false })).toBe(
      'frame,time_s,bees,pollen_bees,drones,bee_coverage_pct\n0,0.000,3,1,0,12.35\n1,0.200,0,0,0,0.00\n',
    );
  });

  it('appends cumulative honeybee traffic at the end only when an entrance was set', () => {
    const event = (kind: 'in' | 'out' | 'loop', f: number, cls: 'bee' | 'wasp' = 'bee') => ({
      kind,
      cls,
      frame: f,
      timeS: f / 5,
      trackIds: [1],
    });
    const frames = [0, 1, 2].map((i) => frame(i, i / 5, counts(1, 0, 0), 1));
    const traffic = {
      events: [
        event('in', 0),
        event('loop', 1),
        event('out', 1),
        event('in', 2),
        event('in', 2, 'wasp'),
      ],
    };
    expect(frameCsv({ frames, traffic }, { includeResearch: false })).toBe(
      'frame,time_s,bees,pollen_bees,drones,bee_coverage_pct,bees_in_cumulative,bees_out_cumulative\n' +
        '0,0.000,1,0,0,1.00,1,0\n1,0.200,1,0,0,1.00,1,1\n2,0.400,1,0,0,1.00,2,1\n',
    );
  });

  it('names the calibration the counts were made with on every row, after the other columns', () => {
    const frames = [0, 1].map((i) => frame(i, i / 5, counts(2, 0, 0), 1));
    const label = 'Calibrated for Apiary North on 7 corrected frames (2026-12-03)';
    expect(frameCsv({ frames, calibration: { label } }, { includeResearch: false })).toBe(
      'frame,time_s,bees,pollen_bees,drones,bee_coverage_pct,calibration\n' +
        `0,0.000,2,0,0,1.00,${label}\n1,0.200,2,0,0,1.00,${label}\n`,
    );
  });

  it('writes the header for a file with no frames', () => {
    expect(frameCsv({ frames: [] }, { includeResearch: true })).toBe(
      FRAME_CSV_COLUMNS.join(',') + '\n',
    );
  });
});

describe('summaryCsv', () => {
  const model = {
    name: 'hivesight-detector',
    version: '0.1.0',
    classes: [],
    inputWidth: 960,
    inputHeight: 544,
  };
  const result = (
    file: string,
    kind: 'image' | 'video',
    c: ClassCounts,
    durationS: number,
  ): AnalysisResult => ({
    file,
    media: {
      kind,
      format: kind === 'image' ? 'jpeg' : 'mp4',
      width: 1920,
      height: 1080,
      durationS,
      fps: 25,
      sizeBytes: 1,
    },
    counts: c,
    frames: kind === 'image' ? [frame(0, 0, c, 5)] : [frame(0, 0, c, 5), frame(1, 0.2, c, 6)],
    tracks: [],
    beeCoveragePct: 5.5,
    model,
    sampleFps: 5,
    zoom: 1,
    timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
    analysedAt: '2026-11-22T10:00:00.000Z',
  });

  it('writes one row per file with shares of honeybees and the model identity', () => {
    const csv = summaryCsv([
      result('a,b.mp4', 'video', counts(6, 3, 1, null), 12.5),
      result('x.jpg', 'image', counts(0, 0, 0, 1), 0),
    ]);
    expect(csv.split('\n')).toEqual([
      SUMMARY_CSV_COLUMNS.join(','),
      '"a,b.mp4",video,12.500,2,6,3,1,,,30.00,10.00,5.50,hivesight-detector@0.1.0,2026-11-22T10:00:00.000Z,10.00,10,,,,',
      'x.jpg,image,0.000,1,0,0,0,,1,,,5.50,hivesight-detector@0.1.0,2026-11-22T10:00:00.000Z,0.00,0,,,,',
      '',
    ]);
    expect(SUMMARY_CSV_COLUMNS.join(',')).toBe(
      'file,kind,duration_s,frames_analysed,bees,pollen_bees,drones,wasps,hornets,pollen_pct,drones_pct,bee_coverage_pct,model,analysed_at,mean_bees_on_screen,peak_bees_on_screen,quality,bees_in,bees_out,calibration',
    );
  });

  it('leaves a share empty when its class is not available', () => {
    const c: ClassCounts = { bee: 4, pollen: null, drone: 1, wasp: null, hornet: null };
    const row = summaryCsv([result('v.mp4', 'video', c, 1)])
      .split('\n')[1]!
      .split(',');
    expect(row[SUMMARY_CSV_COLUMNS.indexOf('pollen_pct')]).toBe('');
    expect(row[SUMMARY_CSV_COLUMNS.indexOf('drones_pct')]).toBe('20.00');
  });

  it('appends bees_in and bees_out when an entrance was set', () => {
    const video = {
      ...result('v.mp4', 'video', counts(2, 0, 0), 4),
      traffic: { beesIn: 3, beesOut: 0 },
    };
    const row = summaryCsv([video]).split('\n')[1]!.split(',');
    expect(row.slice(-4)).toEqual(['', '3', '0', '']);
  });

  it('names the calibration the counts were made with', () => {
    const calibrated = {
      ...result('v.mp4', 'video', counts(2, 0, 0), 4),
      calibration: { label: 'Calibrated for Apiary North on 7 corrected frames (2026-12-03)' },
    };
    const row = summaryCsv([calibrated]).split('\n')[1]!.split(',');
    expect(row.at(-1)).toBe('Calibrated for Apiary North on 7 corrected frames (2026-12-03)');
  });

  it('writes just the header for no files', () => {
    expect(summaryCsv([])).toBe(SUMMARY_CSV_COLUMNS.join(',') + '\n');
  });

  it('escapes a file name a spreadsheet would run as a formula', () => {
    const csv = summaryCsv([result("=2+5*cmd|' -c calc'!A0.jpg", 'image', counts(1, 0, 0), 0)]);
    expect(csv.split('\n')[1]).toMatch(/^'=2\+5\*cmd\|' -c calc'!A0\.jpg,image,0\.000,1,1,/);
  });
});

describe('writeCsv', () => {
  it('puts an apostrophe before every text cell that could start a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']) {
      expect(csvText(`${start}1+1`), JSON.stringify(start)).toBe(`'${start}1+1`);
    }
    for (const plain of ['hive 1', "'quoted", ' =1', '2026-06-01', '', 'a=b']) {
      expect(csvText(plain)).toBe(plain);
    }
  });

  it('escapes text and keeps numbers, negative ones included, as numbers', () => {
    const csv = writeCsv(
      ['name', 'net', 'pct', 'flag', 'none'],
      [
        ['-Hive', -3, csvFixed(-1.5, 2), true, null],
        ['@hive\r\nx', 0, csvFixed(Number.NaN, 2), false, undefined],
      ],
    );
    expect(csv).toBe('name,net,pct,flag,none\n\'-Hive,-3,-1.50,true,\n"\'@hive\r\nx",0,,false,\n');
  });
});
