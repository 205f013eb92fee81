import { Tag } from '@blueprintjs/core';
import { statusLabel, statusTone } from '../lib/status.ts';

export function StatusBadge({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <Tag
      round
      minimal={tone === 'none'}
      intent={tone === 'none' ? 'none' : tone}
      className={`hs-status hs-status-${tone}`}
    >
      {statusLabel(status)}
    </Tag>
  );
}
