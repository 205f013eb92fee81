import { describe, expect, it } from 'vitest';
import { readCrossings, scoreCrossings } from './crossings.ts';

describe('crossings', () => {
  it('reads a crossings file and refuses a bad row', () => {
    expect(readCrossings('time_s,direction,class\n1.40,in,pollen\n3.85,out,bee\n')).toEqual([
      { timeS: 1.4, direction: 'in', cls: 'pollen' },
      { timeS: 3.85, direction: 'out', cls: 'bee' },
    ]);
    expect(() => readCrossings('time_s,direction,class\n1,sideways,bee\n')).toThrow(/row 2/);
    expect(() => readCrossings('time_s,direction,class\n,in,bee\n')).toThrow(RangeError);
  });

  it('matches counted passages to labels of the same direction within the tolerance', () => {
    const labels = readCrossings(
      'time_s,direction,class\n1,in,bee\n2,in,bee\n10,in,bee\n4,out,bee\n',
    );
    const events = [
      { kind: 'in' as const, timeS: 1.5 },
      { kind: 'in' as const, timeS: 2.2 },
      { kind: 'in' as const, timeS: 6 },
      { kind: 'out' as const, timeS: 5.5 },
    ];
    const score = scoreCrossings(events, labels, 1);
    expect(score.in).toEqual({ labelled: 3, counted: 3, matched: 2, missed: 1, extra: 1 });
    expect(score.out).toEqual({ labelled: 1, counted: 1, matched: 0, missed: 1, extra: 1 });
    expect(score.loop).toEqual({ labelled: 0, counted: 0, matched: 0, missed: 0, extra: 0 });
  });
});
