// "Count again with this entrance" (issue 57): videos analysed before their location's entrance
// was set or moved go back to the queue, after a confirmation that says how many and that each
// uses one of the day's uploads. One request a video, in turn, stopping at the first refusal
// (the daily limit, 429) so the user reads why the rest were not queued. "Count again with the
// calibration" (issue 58) is the same for a location's files counted with another calibration.
import { Alert, Button } from '@blueprintjs/core';
import { useState } from 'react';
import { call, errorMessage } from '../lib/api.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';

const ROUTES = {
  entrance: 'POST /api/files/:id/count-again',
  calibration: 'POST /api/files/:id/count-again/calibration',
} as const;

/** What is counted again and with what: a video with the entrance, by default. */
export interface CountAgainPurpose {
  route: keyof typeof ROUTES;
  /** "video" or "file". */
  unit: string;
  /** "with this entrance", "with the calibration", "without the calibration". */
  how: string;
}

const ENTRANCE: CountAgainPurpose = { route: 'entrance', unit: 'video', how: 'with this entrance' };

const many = (n: number, unit: string) => (n === 1 ? `1 ${unit}` : `${n} ${unit}s`);

/** The confirmation's words: how many, and what it costs of today's uploads. */
export function countAgainQuestion(
  count: number,
  uploadsLeft: number | null,
  purpose: CountAgainPurpose = ENTRANCE,
): string {
  const videos = (n: number) => many(n, purpose.unit);
  const cost =
    count === 1
      ? 'It uses one of your uploads for today'
      : `Each uses one of your uploads for today (${count} in all)`;
  const left =
    uploadsLeft === null
      ? '.'
      : uploadsLeft < count
        ? `; you have ${uploadsLeft} left, so only ${videos(uploadsLeft)} can be counted today.`
        : `; you have ${uploadsLeft} left.`;
  return `Count ${videos(count)} again ${purpose.how}? ${cost}${left} Corrected frames are kept.`;
}

export function CountAgainButton({
  fileIds,
  text = 'Count again with this entrance',
  uploadsLeft = null,
  purpose = ENTRANCE,
  onQueued,
}: {
  fileIds: readonly number[];
  text?: string;
  purpose?: CountAgainPurpose;
  /** The owner's uploads left today, when known. */
  uploadsLeft?: number | null;
  /** Called once the requests are done, with how many were queued. */
  onQueued: (queued: number) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const videos = (n: number) => many(n, purpose.unit);
  const run = async () => {
    setAsking(false);
    setBusy(true);
    let queued = 0;
    try {
      for (const id of fileIds) {
        await call(ROUTES[purpose.route], { params: { id } });
        queued += 1;
      }
      toastSuccess(
        'Queued',
        `${videos(queued)} will be counted ${purpose.how.replace('this', 'the')} in a moment; their status shows when.`,
      );
    } catch (error) {
      toastError(
        queued > 0 ? `${videos(queued)} queued, the rest not` : 'Not queued',
        errorMessage(error),
      );
    } finally {
      setBusy(false);
      onQueued(queued);
    }
  };
  return (
    <>
      <Button
        icon="refresh"
        intent="primary"
        text={text}
        loading={busy}
        disabled={fileIds.length === 0}
        onClick={() => setAsking(true)}
      />
      <Alert
        isOpen={asking}
        icon="refresh"
        intent="primary"
        confirmButtonText={fileIds.length === 1 ? 'Count it again' : 'Count them again'}
        cancelButtonText="Cancel"
        onConfirm={() => void run()}
        onCancel={() => setAsking(false)}
      >
        <p>{countAgainQuestion(fileIds.length, uploadsLeft, purpose)}</p>
      </Alert>
    </>
  );
}
