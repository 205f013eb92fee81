/**
 * How far two hand counts of one run agree (issue 56: the truth's own uncertainty): each
 * direction's passages matched one to one within `--window` seconds (eval's 1 s by default),
 * then those only one count has, and the agreement matched / (first + second - matched).
 *
 *   node bin/run-ts.mjs tests/bench/tally-agreement.ts FIRST.crossings.csv SECOND.csv [--window 1]
 */
import { readFileSync } from 'node:fs';
import { readCrossings, scoreCrossings } from '../../engine/index.ts';
import { parseArgs } from './bench-support.ts';

const files = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--window');
if (files.length !== 2) {
  console.error('usage: tally-agreement.ts FIRST.crossings.csv SECOND.crossings.csv [--window 1]');
  process.exit(2);
}
const window = Number(parseArgs().get('window') ?? 1);
const [first, second] = files.map((f) => readCrossings(readFileSync(f, 'utf8')));
const scores = scoreCrossings(
  second!.map((c) => ({ kind: c.direction, timeS: c.timeS })),
  first!,
  window,
);
console.log(`direction\tfirst\tsecond\tboth\tfirst_only\tsecond_only\tagreement`);
for (const [direction, s] of Object.entries(scores)) {
  const union = s.labelled + s.counted - s.matched;
  const agreement = union > 0 ? (s.matched / union).toFixed(2) : '-';
  console.log(
    [direction, s.labelled, s.counted, s.matched, s.missed, s.extra, agreement].join('\t'),
  );
}
