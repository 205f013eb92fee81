import { describe, expect, it } from 'vitest';
import type { Track } from '../types.ts';
import { motTracks } from './mot.ts';

describe('motTracks', () => {
  it('writes one MOTChallenge line per hit, frames from 1, ordered by frame then id', () => {
    const box = (x: number) => ({ x, y: 20.123, width: 30, height: 15.5 });
    const tracks: Track[] = [
      {
        id: 2,
        cls: 'bee',
        firstFrame: 0,
        lastFrame: 1,
        hits: 2,
        boxes: [
          { frame: 0, box: box(5), score: 0.91 },
          { frame: 1, box: box(7), score: 0.876 },
        ],
      },
      {
        id: 1,
        cls: 'drone',
        firstFrame: 1,
        lastFrame: 1,
        hits: 1,
        boxes: [{ frame: 1, box: box(100) }],
      },
    ];
    expect(motTracks(tracks)).toBe(
      '1,2,5,20.12,30,15.5,0.91,-1,-1,-1\n2,1,100,20.12,30,15.5,1,-1,-1,-1\n2,2,7,20.12,30,15.5,0.88,-1,-1,-1\n',
    );
  });
});
