/**
 * The hive runs whose passages were counted by hand (tests/model/hive-crossings, README.md there):
 * each `hive-FIRST-LAST.crossings.csv` beside its `hive-FIRST-LAST.entrance.json`, joined to that
 * run of consecutive labelled frames. The model test and the traffic benchmark read them here, so
 * that a run counted later joins both by adding its two files.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEntrancePolygon, readCrossings } from '../engine/index.ts';
import type { Entrance, LabelledCrossing } from '../engine/index.ts';
import { labelledSequences } from './track-metrics.ts';
import type { LabelledSequence } from './track-metrics.ts';

export const HAND_COUNTED_DIR = fileURLToPath(
  new URL('../tests/model/hive-crossings/', import.meta.url),
);
/** The hive camera's frames, as the labels' normalised boxes are scaled. */
export const HIVE_FRAME = { width: 3840, height: 1080 } as const;
/** The hive clip is encoded at 5 fps: frame i of a run is at i / 5 s (README.md there). */
export const HAND_COUNTED_FPS = 5;

export interface HandCountedRun {
  /** `hive-FIRST-LAST`: the stem of its files, and the clip's name for `hivesight eval`. */
  clip: string;
  sequence: LabelledSequence;
  labels: LabelledCrossing[];
  entrance: Entrance;
}

const TALLY = /^hive-(\d+)-(\d+)\.crossings\.csv$/;

/** Every hand-counted run, in frame order; throws when a tally names frames that are not a run. */
export async function handCountedRuns(
  images: readonly Parameters<typeof labelledSequences>[0][number][],
  dir = HAND_COUNTED_DIR,
): Promise<HandCountedRun[]> {
  const sequences = labelledSequences(images, HIVE_FRAME);
  const tallies = (await readdir(dir))
    .map((name) => TALLY.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]));
  return Promise.all(
    tallies.map(async ([file, first, last]) => {
      const clip = file.replace('.crossings.csv', '');
      const sequence = sequences.find((s) => s.name === `${Number(first)}-${Number(last)}`);
      if (!sequence) throw new Error(`${file}: no run of labelled hive frames ${first}-${last}`);
      const [tally, entrance] = await Promise.all([
        readFile(path.join(dir, file), 'utf8'),
        readFile(path.join(dir, `${clip}.entrance.json`), 'utf8'),
      ]);
      return {
        clip,
        sequence,
        labels: readCrossings(tally),
        entrance: parseEntrancePolygon((JSON.parse(entrance) as { points: unknown }).points),
      };
    }),
  );
}
