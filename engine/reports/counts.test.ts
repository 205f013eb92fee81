import { describe, expect, it } from 'vitest';
import { makeDetection } from '../detection/detection.ts';
import type { ProductClass, Track } from '../types.ts';
import {
  beeCoverage,
  countFrame,
  countTracks,
  honeybeesOnScreen,
  unionArea,
  uniqueCounts,
} from './counts.ts';

const d = (cls: ProductClass, x: number, y: number, w: number, h: number) =>
  makeDetection(cls, 0.9, { x, y, width: w, height: h });
const AVAILABLE: ProductClass[] = ['bee', 'pollen', 'drone', 'hornet'];

describe('countFrame / countTracks', () => {
  it('counts per class, null for classes the model cannot detect', () => {
    const counts = countFrame(
      [d('bee', 0, 0, 1, 1), d('bee', 5, 5, 1, 1), d('hornet', 0, 0, 9, 9)],
      AVAILABLE,
    );
    expect(counts).toEqual({ bee: 2, pollen: 0, drone: 0, wasp: null, hornet: 1 });
    expect(countFrame([], [])).toEqual({
      bee: null,
      pollen: null,
      drone: null,
      wasp: null,
      hornet: null,
    });
  });

  it('counts one insect per track by its class', () => {
    const t = (id: number, cls: ProductClass): Track => ({
      id,
      cls,
      firstFrame: 0,
      lastFrame: 1,
      hits: 2,
      boxes: [],
    });
    expect(countTracks([t(1, 'pollen'), t(2, 'pollen'), t(3, 'drone')], AVAILABLE)).toEqual({
      bee: 0,
      pollen: 2,
      drone: 1,
      wasp: null,
      hornet: 0,
    });
  });
});

describe('uniqueCounts', () => {
  const t = (id: number, cls: ProductClass): Track => ({
    id,
    cls,
    firstFrame: 0,
    lastFrame: 1,
    hits: 2,
    boxes: [],
  });
  const frame = (bee: number, pollen: number, drone: number, hornet = 0) => ({
    counts: { bee, pollen, drone, wasp: null, hornet },
  });

  it('is never below the most of a class one frame shows, re-typing surplus worker tracks', () => {
    // Five tracks, four typed worker and one drone; a frame shows 3 drones and 2 workers at once.
    const tracks = [t(1, 'bee'), t(2, 'bee'), t(3, 'bee'), t(4, 'bee'), t(5, 'drone')];
    const counts = uniqueCounts(tracks, [frame(2, 0, 3), frame(1, 0, 1)], AVAILABLE);
    expect(counts).toEqual({ bee: 2, pollen: 0, drone: 3, wasp: null, hornet: 0 });
  });

  it('adds what no other type has to spare, and raises hornets to their peak', () => {
    const counts = uniqueCounts([t(1, 'bee'), t(2, 'pollen')], [frame(1, 2, 0, 1)], AVAILABLE);
    expect(counts).toEqual({ bee: 1, pollen: 2, drone: 0, wasp: null, hornet: 1 });
  });

  it('leaves tracks that agree with the frames as they are', () => {
    const tracks = [t(1, 'bee'), t(2, 'bee'), t(3, 'pollen')];
    expect(uniqueCounts(tracks, [frame(1, 1, 0), frame(2, 0, 0)], AVAILABLE)).toEqual(
      countTracks(tracks, AVAILABLE),
    );
  });
});

describe('beeCoverage', () => {
  it('is the union of honeybee boxes as a percent of the frame', () => {
    // Two 10x10 boxes overlapping by 5x10 -> 150 px of 100x100.
    expect(beeCoverage([d('bee', 0, 0, 10, 10), d('pollen', 5, 0, 10, 10)], 100, 100)).toBeCloseTo(
      1.5,
    );
  });

  it('ignores wasps and hornets, clips to the frame and never passes 100', () => {
    expect(beeCoverage([d('hornet', 0, 0, 50, 50)], 100, 100)).toBe(0);
    expect(beeCoverage([d('drone', 90, 90, 20, 20)], 100, 100)).toBeCloseTo(1);
    expect(beeCoverage([d('bee', 0, 0, 100, 100), d('bee', 0, 0, 100, 100)], 100, 100)).toBe(100);
    expect(beeCoverage([], 100, 100)).toBe(0);
  });

  it('computes exact union areas for nested and crossing boxes', () => {
    const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
    expect(unionArea([box(0, 0, 10, 10), box(2, 2, 3, 3)])).toBe(100);
    // A plus sign: 30x10 + 10x30 - 10x10 centre.
    expect(unionArea([box(0, 10, 30, 10), box(10, 0, 10, 30)])).toBe(500);
    expect(unionArea([box(0, 0, 10, 10), box(20, 20, 10, 10)])).toBe(200);
  });
});

describe('honeybeesOnScreen', () => {
  it('averages and peaks honeybees per frame, leaving wasps and hornets out', () => {
    const frame = (bee: number, pollen: number, hornet: number) => ({
      counts: { bee, pollen, drone: 0, wasp: null, hornet },
    });
    // A track count of 1 (one bee resting all clip) beside 2-4 bees on screen per frame.
    expect(
      honeybeesOnScreen([frame(2, 0, 5), frame(3, 1, 0), frame(1, 0, 0), frame(2, 0, 0)]),
    ).toEqual({
      meanHoneybees: 2.25,
      peakHoneybees: 4,
    });
    expect(honeybeesOnScreen([])).toBeNull();
  });
});
