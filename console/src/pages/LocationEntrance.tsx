// A hive location's entrance (issue 43): its owner (or an administrator) draws or moves it over a
// frame of one of the location's analysed videos and saves it; videos analysed afterwards count
// bees going in and out across it.
import {
  Alert,
  Button,
  Callout,
  Card,
  FormGroup,
  HTMLSelect,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { CountAgainButton } from '../components/CountAgain.tsx';
import { EntranceCanvas } from '../components/EntranceCanvas.tsx';
import { LocationLoadFailure, LocationPageActions } from '../components/LocationPages.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage } from '../lib/api.ts';
import type { Entrance } from '../lib/entrance.ts';
import { DEFAULT_LINE, describeEntrance, sameEntrance, swapSides } from '../lib/entrance.ts';
import { formatDateTime } from '../lib/format.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';

type EntranceAnswer = Answer<'GET /api/locations/:id/entrance'>;

export function LocationEntrance() {
  const { id = '' } = useParams();
  const params = { id };
  const [data, setData] = useState<EntranceAnswer | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Entrance>(DEFAULT_LINE);
  const [frameId, setFrameId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  // What the last proposal said, beside the editor (a toast would cover the buttons on a phone).
  const [note, setNote] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await call('GET /api/locations/:id/entrance', { params: { id } });
      setData(answer);
      setDraft(answer.entrance ?? DEFAULT_LINE);
      setFrameId((current) => current ?? answer.frames[0]?.file_id ?? null);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessage(error));
    }
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  if (loadError) {
    return <LocationLoadFailure title="Unable to load this hive location" error={loadError} />;
  }
  if (!data) return <Spinner className="hs-page-spinner" aria-label="Loading the entrance" />;

  const frame = data.frames.find((f) => f.file_id === frameId) ?? data.frames[0] ?? null;
  const aspect = frame && frame.height > 0 ? frame.width / frame.height : 4 / 3;
  const saved = data.entrance;
  const changed = !sameEntrance(saved, draft);

  const save = async () => {
    setSaving(true);
    try {
      await call('PUT /api/locations/:id/entrance', { params, body: { entrance: draft } });
      setProblem(null);
      setNote(null);
      toastSuccess(
        'Entrance saved',
        `Videos of ${data.location.name} analysed from now on count bees in and out.`,
      );
      await load();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const clear = async () => {
    setConfirmClear(false);
    try {
      await call('DELETE /api/locations/:id/entrance', { params });
      setProblem(null);
      toastSuccess('Entrance cleared', 'Later videos are counted without in and out.');
      await load();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  const propose = async () => {
    try {
      const answer = await call('GET /api/locations/:id/entrance/proposal', { params });
      if (!answer.proposal) {
        setNote(answer.message ?? 'No entrance could be proposed. Draw it instead.');
        return;
      }
      setDraft(answer.proposal.entrance);
      const { track_ends: inside, of, file_name: from } = answer.proposal;
      setNote(
        `Proposed from ${from}: the area where bees appeared or vanished most ` +
          `(${inside} of ${of} times). Move its corners if needed, then save.`,
      );
    } catch (error) {
      toastError('Proposal failed', errorMessage(error));
    }
  };

  return (
    <div className="hs-page">
      <PageHeader
        title={`Entrance: ${data.location.name}`}
        subtitle="Mark where bees go in and out of the hive. Videos analysed after you save count bees in and out across it."
        actions={<LocationPageActions locationId={data.location.id} current="entrance" />}
      />
      <div className="hs-entrance-layout">
        <Card className="hs-section-card" elevation={1}>
          <h2 className="hs-card-title">
            {frame ? 'Entrance on a frame of your video' : 'Entrance'}{' '}
            {changed ? (
              <Tag intent="warning" minimal round className="hs-entrance-status">
                Not saved
              </Tag>
            ) : saved ? (
              <Tag intent="success" minimal round className="hs-entrance-status">
                Saved
              </Tag>
            ) : null}
          </h2>
          {data.frames.length > 1 ? (
            <FormGroup label="Draw on a frame of" labelFor="entrance-frame">
              <HTMLSelect
                fill
                id="entrance-frame"
                value={frame?.file_id ?? ''}
                onChange={(e) => setFrameId(Number(e.currentTarget.value))}
                options={data.frames.map((f) => ({
                  value: f.file_id,
                  label: `${f.name} (${formatDateTime(f.created_at)})`,
                }))}
              />
            </FormGroup>
          ) : null}
          {!frame ? (
            <Callout intent="primary" icon="info-sign" className="hs-gap">
              No analysed video of this location yet. Upload one to draw on its picture, or set the
              line on this blank frame now.
            </Callout>
          ) : null}
          <EntranceCanvas
            src={frame ? (frame.still_url ?? frame.preview_url) : null}
            alt={
              frame
                ? `Frame of ${frame.name} with the entrance drawn over it`
                : 'Blank frame with the entrance drawn over it'
            }
            aspect={aspect}
            entrance={draft}
            onChange={setDraft}
          />
          <div className="hs-entrance-toolbar">
            <Button
              intent="primary"
              icon="floppy-disk"
              text="Save entrance"
              loading={saving}
              disabled={!changed}
              onClick={() => void save()}
            />
            {draft.kind === 'line' ? (
              <Button
                icon="swap-vertical"
                text="Swap hive side"
                onClick={() => setDraft(swapSides(draft))}
              />
            ) : (
              <Button
                icon="edit"
                text="Draw a line instead"
                onClick={() => setDraft(DEFAULT_LINE)}
              />
            )}
            {data.proposal_available ? (
              <Button
                icon="predictive-analysis"
                text="Propose from my videos"
                onClick={() => void propose()}
              />
            ) : null}
            <Button
              icon="undo"
              variant="minimal"
              text="Undo changes"
              disabled={!changed}
              onClick={() => {
                setDraft(saved ?? DEFAULT_LINE);
                setNote(null);
              }}
            />
            {saved ? (
              <Button
                icon="trash"
                intent="danger"
                variant="outlined"
                text="Clear entrance"
                onClick={() => setConfirmClear(true)}
              />
            ) : null}
          </div>
          {note ? (
            <Callout intent="primary" icon="predictive-analysis" className="hs-gap">
              {note}
            </Callout>
          ) : null}
          {problem ? (
            <Callout intent="danger" icon="error" role="alert">
              {problem}
            </Callout>
          ) : null}
          {saved && !changed && data.recount.videos.length > 0 ? (
            <Callout icon="history" className="hs-gap-top" title="Videos counted without it">
              <p>
                {data.recount.videos.length === 1
                  ? `1 video of ${data.location.name} was`
                  : `${data.recount.videos.length} videos of ${data.location.name} were`}{' '}
                counted before this entrance was saved, and{' '}
                {data.recount.videos.length === 1 ? 'its' : 'their'} media is still kept:{' '}
                {data.recount.videos
                  .slice(0, 5)
                  .map((v) => v.name)
                  .join(', ')}
                {data.recount.videos.length > 5
                  ? ` and ${data.recount.videos.length - 5} more`
                  : ''}
                .
              </p>
              <CountAgainButton
                fileIds={data.recount.videos.map((v) => v.file_id)}
                uploadsLeft={data.recount.uploads_left_today}
                onQueued={() => void load()}
              />
            </Callout>
          ) : null}
        </Card>
        <Card className="hs-section-card" elevation={1}>
          <h2 className="hs-card-title">How it counts</h2>
          <p>
            <strong>{describeEntrance(draft)}</strong>
          </p>
          {draft.kind === 'line' ? (
            <p className="hs-muted">
              Drag the two numbered ends across the hive mouth. A bee that crosses from the{' '}
              <strong>Field</strong> side to the <strong>Hive</strong> side counts as in; the other
              way, as out. Use Swap hive side if the labels are the wrong way round.
            </p>
          ) : (
            <p className="hs-muted">
              An area over the hive mouth: a bee that comes from outside and vanishes inside it
              counts as in; one that appears inside and leaves, as out. Drag its corners to fit.
            </p>
          )}
          <p className="hs-muted hs-small">
            A bee that leaves and comes back within seconds (an orientation flight) counts as a
            loop, neither in nor out. A bee already at the entrance when the video starts, or still
            there when it ends, counts nothing: it was not seen coming out or going in. Videos
            already analysed keep their counts until you count them again with this entrance (while
            their media is kept).
          </p>
        </Card>
      </div>
      <Alert
        isOpen={confirmClear}
        intent="danger"
        icon="trash"
        confirmButtonText="Clear"
        cancelButtonText="Cancel"
        onConfirm={() => void clear()}
        onCancel={() => setConfirmClear(false)}
      >
        <p>
          Clear the entrance of <strong>{data.location.name}</strong>? Later videos are counted
          without in and out; counts already made are kept.
        </p>
      </Alert>
    </div>
  );
}
