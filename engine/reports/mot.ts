/**
 * Tracks in the MOTChallenge text format, one line per track hit:
 * `frame,id,bb_left,bb_top,bb_width,bb_height,conf,-1,-1,-1`, frames counted from 1 (the
 * analysed, sampled frames: frame 1 is the engine's frame 0), boxes in source pixels, `conf` the
 * detection's score (1 where a track has none recorded). Sorted by frame, then id, as MOT tools
 * expect.
 */
import type { Track } from '../types.ts';

export function motTracks(tracks: readonly Track[]): string {
  const rows = tracks.flatMap((t) =>
    t.boxes.map(({ frame, box, score }) => ({
      frame: frame + 1,
      id: t.id,
      text: [box.x, box.y, box.width, box.height, score ?? 1].map(fixed).join(','),
    })),
  );
  rows.sort((a, b) => a.frame - b.frame || a.id - b.id);
  return rows.map((r) => `${r.frame},${r.id},${r.text},-1,-1,-1\n`).join('');
}

function fixed(v: number): string {
  return String(Math.round(v * 100) / 100);
}
