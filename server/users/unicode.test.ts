import { describe, expect, it } from 'vitest';
import { isLookalikeEmail } from './unicode.ts';

describe('isLookalikeEmail', () => {
  it('flags mixed-script labels, Latin look-alike labels and invisible characters', () => {
    expect(isLookalikeEmail('p\u0430ypal@example.com')).toBe(true); // Cyrillic а in the local part
    expect(isLookalikeEmail('admin@ex\u0430mple.com')).toBe(true);
    expect(isLookalikeEmail('admin@\u0430\u0440\u0440\u04cf\u0435.com')).toBe(true); // аррӏе.com
    expect(isLookalikeEmail('ad\u200dmin@example.com')).toBe(true);
  });

  it('leaves single-script addresses alone', () => {
    expect(isLookalikeEmail('ann@example.com')).toBe(false);
    expect(isLookalikeEmail('zoë@bücher.de')).toBe(false);
    expect(isLookalikeEmail('иван@почта.рф')).toBe(false);
    expect(isLookalikeEmail('ivan@\u043f\u043e\u0447\u0442\u0430.com')).toBe(false); // почта: п, ч not look-alikes
  });
});
