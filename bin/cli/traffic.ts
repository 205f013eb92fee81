/**
 * analyze's entrance-traffic flags: `--entrance x1,y1,x2,y2` (a line), `--entrance-file
 * polygon.json` (a JSON array of [x, y] points), `--propose-entrance`, and `--tracks FILE` (MOT
 * text). Coordinates are frame-relative (0-1). Bad values are usage errors (exit 2), found
 * before any file is analysed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Option } from 'commander';
import { parseEntranceLine, parseEntrancePolygon } from '../../engine/vocabulary.ts';
import type { Entrance, Traffic } from '../../engine/vocabulary.ts';
import { UsageError, UserError } from './errors.ts';

export interface TrafficFlags {
  entrance?: string;
  entranceFile?: string;
  proposeEntrance?: boolean;
  tracks?: string;
}

export const trafficOptions = (): Option[] => [
  new Option(
    '--entrance <x1,y1,x2,y2>',
    'count bees in and out across this line (frame-relative 0-1; the hive is on the left going from x1,y1 to x2,y2 as seen on screen)',
  ).conflicts('entranceFile'),
  new Option(
    '--entrance-file <polygon.json>',
    'count bees in and out of this polygon: a JSON array of [x, y] points, frame-relative',
  ),
  new Option('--propose-entrance', 'print an entrance proposed from where tracks start and end'),
  new Option(
    '--tracks <file>',
    'write MOTChallenge tracks of a video here (several inputs: <file stem>-<output name><ext> each)',
  ),
];

export async function readEntrance(flags: TrafficFlags): Promise<Entrance | undefined> {
  if (flags.entrance !== undefined) {
    try {
      return parseEntranceLine(flags.entrance);
    } catch (error) {
      throw new UsageError(`--entrance ${flags.entrance}: ${(error as Error).message}`);
    }
  }
  if (flags.entranceFile === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(flags.entranceFile, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'is not JSON' : 'cannot be read';
    throw new UserError(`--entrance-file ${flags.entranceFile} ${why}`, 'Check the path.', {
      cause: error,
    });
  }
  try {
    return parseEntrancePolygon(value);
  } catch (error) {
    throw new UsageError(`--entrance-file ${flags.entranceFile}: ${(error as Error).message}`);
  }
}

/**
 * Where one input's tracks go: the file named, or with several inputs `tracks-clip.txt` beside
 * it for the input whose outputs are named `clip` (unique within the run, as the CSVs are).
 */
export function tracksPath(flag: string, stem: string, inputs: number): string {
  const file = path.resolve(flag);
  if (inputs === 1) return file;
  const ext = path.extname(file);
  return path.join(path.dirname(file), `${path.basename(file, ext)}-${stem}${ext}`);
}

/** `in 3, out 1, loops 2` for a result line. */
export function trafficText(traffic: Pick<Traffic, 'beesIn' | 'beesOut' | 'loops'>): string {
  return `in ${traffic.beesIn}, out ${traffic.beesOut}, loops ${traffic.loops}`;
}
