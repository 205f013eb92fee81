import { Button, Card, HTMLSelect, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage } from '../lib/api.ts';
import { useResource } from '../lib/useResource.ts';
import { FrameEditor } from './FrameEditor.tsx';
import { HiveAccuracy } from './HiveAccuracy.tsx';

type FrameList = Answer<'GET /api/files/:id/frames'>;

const frameName = (f: FrameList['frames'][number]) =>
  f.source === 'photo'
    ? 'The photo'
    : `${f.time_s.toFixed(1)} s${f.source === 'preview' ? ' (preview frame)' : ''}${f.corrected ? ' ✓ corrected' : ''}`;

/**
 * "Correct the detections" on a processed file's page: pick a frame (the photo, or a video's
 * sampled frame while its media is kept), fix its boxes in the editor; saved frames are listed
 * as corrected, and the hive's accuracy shows once it rests on enough of them.
 */
export function CorrectFrames(props: {
  fileId: number;
  location: string;
  onSaved: () => void;
  /** Told the corrected frames' indices whenever the list loads. */
  onCorrected?: (indices: number[]) => void;
}) {
  const { fileId, location, onSaved, onCorrected } = props;
  const [choice, setChoice] = useState<number | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [version, setVersion] = useState(0);

  const frames = useResource(
    () => call('GET /api/files/:id/frames', { params: { id: fileId } }),
    [fileId, version],
  );
  const list = frames.data;
  const error = frames.error === null ? null : errorMessage(frames.error);
  // Each answer tells the page its corrected frames and picks a first frame if none is chosen.
  useEffect(() => {
    if (!list) return;
    onCorrected?.(list.corrected.map((c) => c.index));
    setChoice(
      (c) =>
        c ??
        list.frames.find((f) => f.source !== 'sampled')?.index ??
        list.frames[0]?.index ??
        null,
    );
    // onCorrected is the page's state setter: stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list]);

  const corrected = list?.corrected ?? [];
  return (
    <Card className="hs-section-card" elevation={1}>
      <h2 className="hs-card-title">
        Correct the detections{' '}
        {corrected.length > 0 ? (
          <Tag intent="success" minimal>
            {corrected.length === 1 ? '1 frame corrected' : `${corrected.length} frames corrected`}
          </Tag>
        ) : null}
      </h2>
      <p className="hs-muted hs-small">
        Fix the boxes the model drew: move, resize, add or delete them, and set each insect&apos;s
        class. Saved corrections replace that frame&apos;s counts
        {list?.kind === 'image' ? ', and so this photo\u2019s counts' : ''}; the annotated preview
        keeps the model&apos;s boxes.
      </p>
      {error ? <p className="hs-error-text">{error}</p> : null}
      {list && list.frames.length === 0 ? (
        <p className="hs-muted">
          {list.kind === 'video' && !list.media_kept
            ? 'The video was erased after its retention time, so its frames can no longer be corrected.'
            : 'No frame can be corrected yet.'}
        </p>
      ) : null}
      {list && list.frames.length > 0 ? (
        <div className="hs-frame-picker">
          {list.kind === 'video' ? (
            <HTMLSelect
              aria-label="Frame to correct"
              value={choice ?? ''}
              onChange={(e) => setChoice(Number(e.currentTarget.value))}
              options={list.frames.map((f) => ({ value: f.index, label: frameName(f) }))}
            />
          ) : null}
          <Button
            icon="edit"
            intent="primary"
            variant="outlined"
            text={list.kind === 'image' ? 'Correct this photo' : 'Open frame'}
            disabled={choice === null}
            onClick={() => setOpen(choice)}
          />
        </div>
      ) : null}
      {open !== null ? (
        <FrameEditor
          key={open}
          fileId={fileId}
          index={open}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setVersion((v) => v + 1);
            onSaved();
          }}
        />
      ) : null}
      <HiveAccuracy fileId={fileId} location={location} version={version} />
    </Card>
  );
}
