// A hive location's calibration (issue 58), on its history page: how many corrected frames it
// has and why a calibration cannot be fitted yet, "Calibrate with my N corrected frames", the
// fit's progress (the worker fits it; the card asks again every few seconds until it is done),
// its leave-one-frame-out gain with and without, the owner's switch (saying plainly when it is
// on but not applied, its gain inside the noise), the export for the CLI, and counting the
// location's files again once it was turned on or off.
import { AnchorButton, Button, Callout, Card, Code, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage, routeLink } from '../lib/api.ts';
import { toastError } from '../lib/toaster.ts';
import { usePollingWhile } from '../lib/usePolling.ts';
import { useResource } from '../lib/useResource.ts';
import { CountAgainButton } from './CountAgain.tsx';

type Calibration = Answer<'GET /api/locations/:id/calibration'>;

const frames = (n: number) => (n === 1 ? '1 corrected frame' : `${n} corrected frames`);
const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);

/** What the switch's state means for the counts, in one sentence. */
export function switchSentence(c: Calibration): string {
  const where = c.location.name;
  if (!c.enabled) return `Off: counts at ${where} are made with the model’s own settings.`;
  if (!c.applied)
    return `On, but not applied: its gain is inside the noise, so counts at ${where} are still made with the model’s own settings.`;
  return `On: every later analysis at ${where} runs with it.`;
}

export function CalibrationCard({ locationId }: { locationId: number }) {
  const params = { id: locationId };
  const resource = useResource(
    () => call('GET /api/locations/:id/calibration', { params }),
    [locationId],
  );
  const { data, setData } = resource;
  const [busy, setBusy] = useState(false);
  const fitting = data?.state === 'queued' || data?.state === 'fitting';
  const reload = () => call('GET /api/locations/:id/calibration', { params }).then(setData);
  usePollingWhile(fitting, reload);

  const act = (work: () => Promise<Calibration>) => {
    setBusy(true);
    work()
      .then(setData)
      .catch((e: unknown) => toastError('Calibration', errorMessage(e)))
      .finally(() => setBusy(false));
  };

  if (!data) {
    return resource.error ? null : (
      <Card className="hs-section-card" elevation={1}>
        <h2 className="hs-card-title">Calibration</h2>
        <Spinner size={20} aria-label="Loading the calibration" />
      </Card>
    );
  }

  const c = data;
  const recount = c.recount.files;
  return (
    <Card className="hs-section-card" elevation={1}>
      <h2 className="hs-card-title">Calibration</h2>
      <p className="hs-muted hs-small">
        A calibration fits the detector to this hive&apos;s camera from the frames you corrected
        here: the score threshold that counts best, the zoom at which its bees look the size the
        model learnt, and pollen or drone thresholds where your corrections show a bias. It is yours
        alone and is never used for anyone else&apos;s files.
      </p>
      <p>
        You have corrected {c.corrected_frames === 1 ? '1 frame' : `${c.corrected_frames} frames`}{' '}
        from {files(c.corrected_files)} at {c.location.name}.
      </p>
      <div className="hs-history-filters">
        <Button
          icon="predictive-analysis"
          intent="primary"
          text={`Calibrate with my ${frames(c.corrected_frames)}`}
          disabled={c.why_not !== null || fitting}
          loading={busy && !fitting}
          onClick={() => act(() => call('POST /api/locations/:id/calibration', { params }))}
        />
        {c.label ? (
          <AnchorButton
            icon="download"
            variant="outlined"
            text="Export calibration.json"
            href={routeLink('GET /api/locations/:id/calibration.json', { params })}
            download
          />
        ) : null}
      </div>
      {c.why_not ? (
        <p className="hs-muted hs-small hs-gap-top" role="note">
          Not yet: {c.why_not} Correct frames on the files of this location to add more.
        </p>
      ) : null}
      {fitting ? (
        <Callout icon={<Spinner size={16} />} className="hs-gap-top" role="status">
          {c.state === 'queued'
            ? 'Waiting for the worker to fit the calibration…'
            : `Fitting the calibration on your ${frames(c.corrected_frames)}…`}{' '}
          This page updates when it is done.
        </Callout>
      ) : null}
      {c.state === 'failed' && c.error ? (
        <Callout intent="danger" icon="error" className="hs-gap-top" role="alert">
          The calibration could not be fitted: {c.error}
          {c.label ? ' The earlier calibration is kept.' : ''}
        </Callout>
      ) : null}
      {c.label && c.sentence ? (
        <div className="hs-gap-top">
          <p>
            <strong>{c.label}</strong>{' '}
            {c.applied ? (
              <Tag intent="success" minimal>
                Applied
              </Tag>
            ) : (
              <Tag minimal>Not applied</Tag>
            )}
          </p>
          <Callout
            icon={c.gain?.significant ? 'trending-down' : 'disable'}
            intent={c.gain?.significant ? 'success' : 'warning'}
            title="The gain, measured honestly"
          >
            {c.sentence} Each frame is counted with a calibration fitted on the other frames alone,
            so the figure is never the frames grading themselves.
          </Callout>
          {c.parameters ? (
            <p className="hs-muted hs-small hs-gap-top">
              Fitted: honeybee score threshold {c.parameters.thresholds.honeybee}
              {c.parameters.thresholds.pollen !== undefined
                ? `, pollen ${c.parameters.thresholds.pollen}`
                : ''}
              {c.parameters.thresholds.drone !== undefined
                ? `, drones ${c.parameters.thresholds.drone}`
                : ''}
              {c.parameters.zoom !== null
                ? `, zoom ${c.parameters.zoom}`
                : ', zoom left to the model'}
              . For the command line: <Code>hivesight analyze --calibration calibration.json</Code>.
            </p>
          ) : null}
          <Switch
            large
            className="hs-gap-top"
            checked={c.enabled}
            disabled={busy}
            label="Use this calibration for this location’s counts"
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              act(() =>
                call('PATCH /api/locations/:id/calibration', { params, body: { enabled } }),
              );
            }}
          />
          {c.enabled && !c.applied ? (
            <Callout intent="warning" icon="warning-sign" role="status">
              {switchSentence(c)}
            </Callout>
          ) : (
            <p className="hs-muted" role="status">
              {switchSentence(c)}
            </p>
          )}
        </div>
      ) : null}
      {c.label && recount.length > 0 ? (
        <Callout
          icon="history"
          className="hs-gap-top"
          title={c.applied ? 'Files counted without it' : 'Files counted with it'}
        >
          <p>
            {recount.length === 1
              ? `1 file of ${c.location.name} was`
              : `${recount.length} files of ${c.location.name} were`}{' '}
            counted {c.applied ? 'without this calibration' : 'with a calibration now off'}, and{' '}
            {recount.length === 1 ? 'its' : 'their'} media is still kept:{' '}
            {recount
              .slice(0, 5)
              .map((f) => f.name)
              .join(', ')}
            {recount.length > 5 ? ` and ${recount.length - 5} more` : ''}.
          </p>
          <CountAgainButton
            fileIds={recount.map((f) => f.file_id)}
            text={c.applied ? 'Count again with the calibration' : 'Count again without it'}
            purpose={{
              route: 'calibration',
              unit: 'file',
              how: c.applied ? 'with the calibration' : 'without the calibration',
            }}
            uploadsLeft={c.recount.uploads_left_today}
            onQueued={() => void reload()}
          />
        </Callout>
      ) : null}
    </Card>
  );
}
