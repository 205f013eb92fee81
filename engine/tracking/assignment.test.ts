import { describe, expect, it } from 'vitest';
import { maxWeightAssignment } from './assignment.ts';

describe('maxWeightAssignment', () => {
  it('gives up the greedy best pair when two others weigh more together', () => {
    // Greedy takes 0-0 (0.9) and is left with 1-1 (0.1); the best is 0-1 + 1-0 = 1.6.
    expect(
      maxWeightAssignment([
        [0.9, 0.8],
        [0.8, 0.1],
      ]),
    ).toEqual([1, 0]);
  });

  it('leaves rows beyond the columns unpaired, and pairs nothing from an empty matrix', () => {
    expect(maxWeightAssignment([[0.2], [0.7], [0.1]])).toEqual([-1, 0, -1]);
    expect(maxWeightAssignment([[0.2, 0.9, 0.1]])).toEqual([1]);
    expect(maxWeightAssignment([])).toEqual([]);
  });
});
