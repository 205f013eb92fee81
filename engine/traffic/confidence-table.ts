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
  commit: '891453c',
  cameras: ['hive-entrance', 'backyard-entrance'],
  clipsPerCamera: 3,
  clipSeconds: 60,
  bands: [
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 5,
      meanNear: 4.5,
      in: {
        precision: 0.62,
        recall: 0.57,
        passages: 70,
      },
      out: {
        precision: 0.53,
        recall: 0.72,
        passages: 57,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 5,
      meanNear: 13.4,
      in: {
        precision: 0.75,
        recall: 0.52,
        passages: 199,
      },
      out: {
        precision: 0.59,
        recall: 0.75,
        passages: 186,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 5,
      meanNear: 35.5,
      in: {
        precision: 0.9,
        recall: 0.4,
        passages: 492,
      },
      out: {
        precision: 0.73,
        recall: 0.74,
        passages: 525,
      },
    },
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 10,
      meanNear: 4.5,
      in: {
        precision: 0.59,
        recall: 0.69,
        passages: 70,
      },
      out: {
        precision: 0.47,
        recall: 0.72,
        passages: 57,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 10,
      meanNear: 13.4,
      in: {
        precision: 0.72,
        recall: 0.52,
        passages: 199,
      },
      out: {
        precision: 0.55,
        recall: 0.74,
        passages: 186,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 10,
      meanNear: 35.5,
      in: {
        precision: 0.83,
        recall: 0.4,
        passages: 492,
      },
      out: {
        precision: 0.66,
        recall: 0.81,
        passages: 525,
      },
    },
    {
      sceneBees: 5,
      crowding: 'quiet',
      sampleFps: 15,
      meanNear: 4.5,
      in: {
        precision: 0.59,
        recall: 0.57,
        passages: 70,
      },
      out: {
        precision: 0.52,
        recall: 0.81,
        passages: 57,
      },
    },
    {
      sceneBees: 15,
      crowding: 'busy',
      sampleFps: 15,
      meanNear: 13.4,
      in: {
        precision: 0.67,
        recall: 0.46,
        passages: 199,
      },
      out: {
        precision: 0.55,
        recall: 0.78,
        passages: 186,
      },
    },
    {
      sceneBees: 40,
      crowding: 'crowded',
      sampleFps: 15,
      meanNear: 35.6,
      in: {
        precision: 0.88,
        recall: 0.44,
        passages: 492,
      },
      out: {
        precision: 0.6,
        recall: 0.87,
        passages: 525,
      },
    },
  ],
};
