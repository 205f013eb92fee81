import { describe, expect, it } from 'vitest';
import { modelIdentity } from './file-detail.ts';

describe('modelIdentity', () => {
  const identity = { name: 'hivesight-detector', version: '1.0.0', classes: ['bee', 'hornet'] };

  it("carries a card's alert scores, and reads without them", () => {
    expect(modelIdentity.parse({ ...identity, alertScores: { hornet: 0.725 } })).toEqual({
      ...identity,
      alertScores: { hornet: 0.725 },
    });
    expect(modelIdentity.parse(identity)).toEqual(identity);
  });

  it('refuses an alert score for a class the product does not know', () => {
    expect(modelIdentity.safeParse({ ...identity, alertScores: { moth: 0.5 } }).success).toBe(
      false,
    );
  });
});
