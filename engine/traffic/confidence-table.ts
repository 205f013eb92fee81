/**
 * Written by `npm run bench:traffic -- --write-confidence` (do not edit by hand): the synthetic
 * entrance benchmark's crossing precision and recall per density and sample rate, read by
 * `trafficConfidence` (`confidence.ts`). Run it again after changing the tracker or the count.
 */
import type { ConfidenceTable } from '../types.ts';

export const TRAFFIC_CONFIDENCE: ConfidenceTable = {
  benchmark: 'synthetic entrance benchmark',
  feed: 'noise',
  variant: 'product',
  date: '2026-12-06',
  commit: 'b1094db',
  cameras: ['hive-entrance', 'backyard-entrance'],
  clipsPerCamera: 3,
  clipSeconds: 60,
  bands: [
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 5,
      meanNear: 3.8,
      in: {
        precision: 0.84,
        recall: 0.53,
        passages: 122,
      },
      out: {
        precision: 0.81,
        recall: 0.68,
        passages: 131,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 5,
      meanNear: 11.3,
      in: {
        precision: 0.92,
        recall: 0.4,
        passages: 362,
      },
      out: {
        precision: 0.86,
        recall: 0.45,
        passages: 334,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 5,
      meanNear: 28.9,
      in: {
        precision: 0.97,
        recall: 0.24,
        passages: 940,
      },
      out: {
        precision: 0.98,
        recall: 0.41,
        passages: 934,
      },
    },
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 10,
      meanNear: 3.8,
      in: {
        precision: 0.84,
        recall: 0.57,
        passages: 122,
      },
      out: {
        precision: 0.75,
        recall: 0.7,
        passages: 131,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 10,
      meanNear: 11.3,
      in: {
        precision: 0.88,
        recall: 0.37,
        passages: 362,
      },
      out: {
        precision: 0.83,
        recall: 0.56,
        passages: 334,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 10,
      meanNear: 29,
      in: {
        precision: 0.98,
        recall: 0.22,
        passages: 940,
      },
      out: {
        precision: 0.95,
        recall: 0.46,
        passages: 934,
      },
    },
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 15,
      meanNear: 3.8,
      in: {
        precision: 0.79,
        recall: 0.51,
        passages: 122,
      },
      out: {
        precision: 0.76,
        recall: 0.72,
        passages: 131,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 15,
      meanNear: 11.3,
      in: {
        precision: 0.84,
        recall: 0.35,
        passages: 362,
      },
      out: {
        precision: 0.82,
        recall: 0.61,
        passages: 334,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 15,
      meanNear: 29.1,
      in: {
        precision: 0.99,
        recall: 0.22,
        passages: 940,
      },
      out: {
        precision: 0.96,
        recall: 0.5,
        passages: 934,
      },
    },
  ],
};
