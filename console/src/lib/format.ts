// Display formatting shared by the screens (spec section 5 and 9).

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1024-based size with one decimal unless whole: 1536 -> "1.5 KB", 10485760 -> "10 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
  return `${text} ${SIZE_UNITS[unit]}`;
}

/** A percentage with one decimal, or N/A when the value is not numeric. */
export function formatPercent(value: unknown): string {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return 'N/A';
  return `${n.toFixed(1)}%`;
}

/** Text of a scalar cell; objects (never expected) become empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** Local date-time, or the raw text when it cannot be parsed; a dash when missing. */
export function formatDateTime(value: unknown): string {
  const text = cellText(value);
  if (text === '') return '—';
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return text;
  return date.toLocaleString();
}

/** A dash for missing values. */
export function orDash(value: unknown): string {
  const text = cellText(value).trim();
  return text === '' ? '—' : text;
}

export const TRUNCATE_AT = 30;

/** Names longer than 30 characters are cut with an ellipsis (the full name goes in a tooltip). */
export function truncateName(
  name: string,
  max = TRUNCATE_AT,
): { text: string; truncated: boolean } {
  if (name.length <= max) return { text: name, truncated: false };
  return { text: `${name.slice(0, max - 1)}…`, truncated: true };
}

/** "1 match" / "3 matches". */
export function matchesLabel(count: number): string {
  return `${count} ${count === 1 ? 'match' : 'matches'}`;
}
