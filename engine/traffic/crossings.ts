/**
 * Labelled crossings (`<clip>.crossings.csv`, engine/README.md "Crossings file") and how far a
 * clip's counted traffic is from them. Predicted and labelled passages of one direction are
 * matched one to one in time order within `toleranceS`: a passage counted at the right moment
 * is right; one whose time matches no label is extra, a label no passage matches is missed.
 */
import { isProductClass } from '../types.ts';
import type { ProductClass, TrafficEvent } from '../types.ts';

export interface LabelledCrossing {
  timeS: number;
  direction: TrafficEvent['kind'];
  cls: ProductClass;
}

export interface CrossingScore {
  labelled: number;
  counted: number;
  matched: number;
  missed: number;
  extra: number;
}

const DIRECTIONS: readonly string[] = ['in', 'out', 'loop'];

/** Reads `time_s,direction,class` rows; throws a RangeError naming the first bad row. */
export function readCrossings(text: string): LabelledCrossing[] {
  // Plain fields (numbers, words): no quoting to undo.
  const [header = '', ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const names = header.split(',').map((s) => s.trim());
  const rows = lines.map((line) => {
    const cells = line.split(',').map((s) => s.trim());
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  });
  return rows.map((row, i) => {
    const timeS = Number(row.time_s);
    const direction = row.direction ?? '';
    const cls = row.class;
    if (
      !(row.time_s !== '' && timeS >= 0) ||
      !DIRECTIONS.includes(direction) ||
      !isProductClass(cls)
    ) {
      throw new RangeError(
        `crossings row ${i + 2}: expected time_s (seconds), direction (in, out or loop) and a class`,
      );
    }
    return { timeS, direction: direction as LabelledCrossing['direction'], cls };
  });
}

/** Per direction, counted passages against labelled ones (every class together). */
export function scoreCrossings(
  events: readonly Pick<TrafficEvent, 'kind' | 'timeS'>[],
  labels: readonly LabelledCrossing[],
  toleranceS = 1,
): Record<TrafficEvent['kind'], CrossingScore> {
  const score = (kind: TrafficEvent['kind']): CrossingScore => {
    const counted = events
      .filter((e) => e.kind === kind)
      .map((e) => e.timeS)
      .sort((a, b) => a - b);
    const labelled = labels
      .filter((l) => l.direction === kind)
      .map((l) => l.timeS)
      .sort((a, b) => a - b);
    let matched = 0;
    let j = 0;
    for (const t of counted) {
      while (j < labelled.length && labelled[j]! < t - toleranceS) j++;
      if (j < labelled.length && Math.abs(labelled[j]! - t) <= toleranceS) {
        matched++;
        j++;
      }
    }
    return {
      labelled: labelled.length,
      counted: counted.length,
      matched,
      missed: labelled.length - matched,
      extra: counted.length - matched,
    };
  };
  return { in: score('in'), out: score('out'), loop: score('loop') };
}
