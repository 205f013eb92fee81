// How many time labels fit under a chart (issue 57: at 390 px three "Jun 1 06:30 AM" labels ran
// into each other): as many as fit side by side with a gap, at least the two ends, at most `max`.

/** Width in px of a 12 px label of `chars` characters, with room on both sides. */
const labelWidth = (chars: number) => chars * 7 + 16;

export function timeTickCount(innerWidth: number, sampleLabel: string, max = 5): number {
  const fit = Math.floor(innerWidth / labelWidth(sampleLabel.length));
  return Math.max(2, Math.min(max, fit));
}
