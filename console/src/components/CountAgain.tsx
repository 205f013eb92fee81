// "Count again with this entrance" (issue 57): videos analysed before their location's entrance
// was set or moved go back to the queue, after a confirmation that says how many and that each
// uses one of the day's uploads. One request a video, in turn, stopping at the first refusal
// (the daily limit, 429) so the user reads why the rest were not queued.
import { Alert, Button } from '@blueprintjs/core';
import { useState } from 'react';
import { call, errorMessage } from '../lib/api.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';

const videos = (n: number) => (n === 1 ? '1 video' : `${n} videos`);

/** The confirmation's words: how many, and what it costs of today's uploads. */
export function countAgainQuestion(count: number, uploadsLeft: number | null): string {
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
  return `Count ${videos(count)} again with this entrance? ${cost}${left} Corrected frames are kept.`;
}

export function CountAgainButton({
  fileIds,
  text = 'Count again with this entrance',
  uploadsLeft = null,
  onQueued,
}: {
  fileIds: readonly number[];
  text?: string;
  /** The owner's uploads left today, when known. */
  uploadsLeft?: number | null;
  /** Called once the requests are done, with how many were queued. */
  onQueued: (queued: number) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setAsking(false);
    setBusy(true);
    let queued = 0;
    try {
      for (const id of fileIds) {
        await call('POST /api/files/:id/count-again', { params: { id } });
        queued += 1;
      }
      toastSuccess(
        'Queued',
        `${videos(queued)} will be counted with the entrance in a moment; their status shows when.`,
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
        <p>{countAgainQuestion(fileIds.length, uploadsLeft)}</p>
      </Alert>
    </>
  );
}
