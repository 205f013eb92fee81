import { describe, expect, it } from 'vitest';
import { autoZoomNote, summariseZooms } from './auto-zoom.ts';

describe('summariseZooms', () => {
  it('counts only the images detected again, with the range of their zooms', () => {
    expect(summariseZooms([1, 0.7, 1, 0.75, 0.68, 1])).toEqual({
      zoomed: 3,
      min: 0.68,
      median: 0.7,
      max: 0.75,
    });
  });

  it('has no range when no image was zoomed', () => {
    expect(summariseZooms([1, 1])).toEqual({ zoomed: 0, min: null, median: null, max: null });
    expect(summariseZooms([])).toEqual({ zoomed: 0, min: null, median: null, max: null });
  });

  it('takes the median between the middle two of an even count', () => {
    expect(summariseZooms([2, 1.5, 1, 1.6, 1.9]).median).toBeCloseTo(1.75);
  });
});

describe('autoZoomNote', () => {
  it('says how many images were zoomed and how far', () => {
    expect(autoZoomNote(summariseZooms([1, 0.7, 0.75, 0.68]), 4)).toBe(
      'Auto-zoom detected 3 of 4 images again at 0.68x to 0.75x, median 0.70x: their honeybees were off the size the detector learnt.',
    );
    expect(autoZoomNote(summariseZooms([2, 1]), 2)).toBe(
      'Auto-zoom detected 1 of 2 images again at 2.00x: their honeybees were off the size the detector learnt.',
    );
  });

  it('says nothing when no image was zoomed', () => {
    expect(autoZoomNote(summariseZooms([1, 1]), 2)).toBeUndefined();
  });
});
