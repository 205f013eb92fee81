// Status badge colours (spec section 4, statuses from decisions section 2).

export type StatusTone = 'success' | 'warning' | 'danger' | 'none';

const GREEN = new Set(['processed', 'completed', 'success']);
const YELLOW = new Set(['processing', 'queued', 'pending', 'uploaded']);
const RED = new Set(['failed', 'error']);

export function statusTone(status: string | null | undefined): StatusTone {
  const s = (status ?? '').trim().toLowerCase();
  if (GREEN.has(s)) return 'success';
  if (YELLOW.has(s)) return 'warning';
  if (RED.has(s)) return 'danger';
  return 'none';
}

export function isProcessed(status: string | null | undefined): boolean {
  return (status ?? '').trim().toLowerCase() === 'processed';
}

/** Still waiting for, or in, its analysis: its status will change on its own. */
export function isUnfinished(status: string | null | undefined): boolean {
  return statusTone(status) === 'warning';
}

/** Human form of an upper-case status: PROCESSED -> Processed. */
export function statusLabel(status: string | null | undefined): string {
  const s = (status ?? '').trim();
  if (s === '') return 'Unknown';
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}
