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
  commit: 'b7f7c48',
  cameras: ['hive-entrance', 'backyard-entrance'],
  clipsPerCamera: 3,
  clipSeconds: 60,
  bands: [
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 5,
      meanNear: 4.3,
      in: {
        precision: 0.6,
        recall: 0.56,
        passages: 70,
      },
      out: {
        precision: 0.49,
        recall: 0.65,
        passages: 57,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 5,
      meanNear: 12.4,
      in: {
        precision: 0.7,
        recall: 0.46,
        passages: 199,
      },
      out: {
        precision: 0.56,
        recall: 0.72,
        passages: 186,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 5,
      meanNear: 30.9,
      in: {
        precision: 0.88,
        recall: 0.38,
        passages: 492,
      },
      out: {
        precision: 0.66,
        recall: 0.74,
        passages: 525,
      },
    },
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 10,
      meanNear: 4.2,
      in: {
        precision: 0.6,
        recall: 0.63,
        passages: 70,
      },
      out: {
        precision: 0.44,
        recall: 0.7,
        passages: 57,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 10,
      meanNear: 12.4,
      in: {
        precision: 0.7,
        recall: 0.51,
        passages: 199,
      },
      out: {
        precision: 0.5,
        recall: 0.71,
        passages: 186,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 10,
      meanNear: 31.1,
      in: {
        precision: 0.87,
        recall: 0.46,
        passages: 492,
      },
      out: {
        precision: 0.61,
        recall: 0.86,
        passages: 525,
      },
    },
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 15,
      meanNear: 4.3,
      in: {
        precision: 0.53,
        recall: 0.44,
        passages: 70,
      },
      out: {
        precision: 0.49,
        recall: 0.82,
        passages: 57,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 15,
      meanNear: 12.3,
      in: {
        precision: 0.68,
        recall: 0.52,
        passages: 199,
      },
      out: {
        precision: 0.49,
        recall: 0.77,
        passages: 186,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 15,
      meanNear: 31.1,
      in: {
        precision: 0.83,
        recall: 0.51,
        passages: 492,
      },
      out: {
        precision: 0.57,
        recall: 0.9,
        passages: 525,
      },
    },
  ],
};
