import {
  Alert,
  AnchorButton,
  Button,
  Callout,
  Card,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { LineChart } from '../components/LineChart.tsx';
import type { Series } from '../components/LineChart.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { PreviewZoom } from '../components/PreviewZoom.tsx';
import { CorrectFrames } from '../components/CorrectFrames.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { FileHive } from '../components/TrafficCard.tsx';
import type { FileDetail as FileDetailAnswer } from '../../../contract/schemas/file-detail.ts';
import { call, errorMessage } from '../lib/api.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import { usePollingWhile } from '../lib/usePolling.ts';
import { isUnfinished } from '../lib/status.ts';
import { countCells, countText } from '../lib/fileDetail.ts';
import { formatBytes, formatDateTime, formatPercent, orDash } from '../lib/format.ts';
import './FileDetail.css';

type Frame = FileDetailAnswer['frames'][number];

const SERIES = [
  // The preview's box colours (Okabe-Ito), so a line and its boxes read as one class.
  { key: 'bee', label: 'Worker bees', color: '#e69f00' },
  { key: 'pollen', label: 'Bees with pollen', color: '#56b4e9' },
  { key: 'drone', label: 'Drones', color: '#0072b2' },
  { key: 'wasp', label: 'Wasps', color: '#cc79a7' },
  { key: 'hornet', label: 'Asian hornets', color: '#d55e00' },
] as const;

function chartSeries(frames: Frame[]): Series[] {
  return SERIES.filter((s) => frames.some((f) => typeof f.counts[s.key] === 'number')).map((s) => ({
    label: s.label,
    color: s.color,
    points: frames.map((f) => ({ x: f.time_s, y: f.counts[s.key] ?? 0 })),
  }));
}

export function FileDetail() {
  const { id } = useParams();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Bumped when a corrected frame is saved, so the counts are read again; frames corrected.
  const [version, setVersion] = useState(0);
  const [corrected, setCorrected] = useState<number[]>([]);

  const deleteFile = async (name: string) => {
    setDeleting(true);
    try {
      await call('DELETE /api/files/:id', { params: { id: id ?? '' } });
      void navigate('/file-upload-list', { replace: true });
      toastSuccess('File deleted', `${name} and its report were deleted.`);
    } catch (e) {
      toastError('Delete failed', errorMessage(e));
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  const file = useResource(
    () => call('GET /api/files/:id', { params: { id: id ?? '' } }),
    [id, version],
  );
  const detail = file.data;
  const error = file.error === null ? null : errorMessage(file.error);
  // Its counts appear by themselves once the analysis is done.
  usePollingWhile(detail !== null && isUnfinished(detail.status), () => setVersion((v) => v + 1));

  if (error) {
    return (
      <div className="hs-page">
        <NonIdealState
          icon="error"
          title="Unable to load this file"
          description={error}
          action={<Link to="/file-upload-list">Back to uploaded files</Link>}
        />
      </div>
    );
  }
  if (!detail) return <Spinner className="hs-page-spinner" aria-label="Loading file" />;

  const cells = countCells(detail.counts, {
    researchPlan: detail.research_plan,
    modelClasses: detail.model?.classes,
  });
  const processed = detail.status.toUpperCase() === 'PROCESSED';
  const series = detail.kind === 'video' ? chartSeries(detail.frames ?? []) : [];

  return (
    <div className="hs-page">
      <PageHeader
        title={detail.name}
        subtitle={
          <>
            <StatusBadge status={detail.status} />{' '}
            <span className="hs-muted">{formatDateTime(detail.status_time)}</span>
          </>
        }
        actions={
          <>
            <Button
              icon="arrow-left"
              text="Uploaded files"
              onClick={() => navigate('/file-upload-list')}
            />
            <AnchorButton
              icon="download"
              intent="primary"
              text="Download CSV report"
              href={detail.report_url}
              download
              disabled={!processed}
            />
            {detail.summary_url ? (
              <AnchorButton
                icon="th-derived"
                text="Summary CSV"
                href={detail.summary_url}
                download
                disabled={!processed}
              />
            ) : null}
            <Button
              icon="trash"
              intent="danger"
              variant="outlined"
              text="Delete file"
              onClick={() => setConfirmDelete(true)}
            />
          </>
        }
      />
      <Alert
        isOpen={confirmDelete}
        intent="danger"
        icon="trash"
        confirmButtonText="Delete"
        cancelButtonText="Cancel"
        loading={deleting}
        onConfirm={() => void deleteFile(detail.name)}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          Delete <strong>{detail.name}</strong>? Its media, report and counts go for good, and it
          leaves your comparisons and exports.
        </p>
      </Alert>
      {detail.status.toUpperCase() === 'FAILED' ? (
        <Callout
          intent="danger"
          icon="error"
          title="The analysis failed"
          className="hs-gap"
          role="alert"
        >
          {detail.status_reason ?? 'No reason was recorded.'}
        </Callout>
      ) : null}
      {!processed && detail.status.toUpperCase() !== 'FAILED' ? (
        <Callout intent="warning" icon="time" className="hs-gap">
          This file is still being analysed. Counts appear here when its status is Processed.
        </Callout>
      ) : null}
      {processed && detail.quality ? (
        // Footage unlike the model's training footage is said so before any figure is read.
        <Callout
          intent={
            detail.quality.grade === 'good'
              ? 'success'
              : detail.quality.grade === 'poor'
                ? 'danger'
                : 'warning'
          }
          icon={detail.quality.grade === 'good' ? 'tick-circle' : 'warning-sign'}
          title={`Result quality: ${detail.quality.grade}`}
          className="hs-gap hs-quality"
          data-testid="result-quality"
        >
          {detail.quality.reason}
        </Callout>
      ) : null}
      <div className="hs-detail">
        <Card className="hs-section-card hs-detail-preview" elevation={1}>
          <h2 className="hs-card-title">Annotated preview</h2>
          {detail.preview_url ? (
            <PreviewZoom
              src={detail.preview_url}
              alt={`Annotated preview of ${detail.name} with a box around each detected insect`}
              title={`Annotated preview of ${detail.name}`}
            />
          ) : (
            <p className="hs-muted">No preview yet.</p>
          )}
          {detail.media_url ? (
            <AnchorButton
              variant="minimal"
              icon="share"
              text="Open original media"
              href={detail.media_url}
              target="_blank"
            />
          ) : detail.kind === 'video' ? (
            <p className="hs-muted hs-small">
              The video was erased after processing; its report is kept.
            </p>
          ) : null}
        </Card>
        <div className="hs-detail-side">
          <Card className="hs-section-card" elevation={1}>
            <h2 className="hs-card-title">
              {detail.kind === 'video' ? 'Unique insects' : 'Detections'}{' '}
              {detail.kind === 'image' && corrected.includes(0) ? (
                <Tag intent="success" minimal>
                  Corrected
                </Tag>
              ) : null}
            </h2>
            {processed && detail.summary?.calibration ? (
              // Each result names the calibration its counts were made with (issue 58).
              <p className="hs-small">
                <Tag intent="primary" minimal icon="predictive-analysis">
                  {detail.summary.calibration.label}
                </Tag>
              </p>
            ) : null}
            <dl className="hs-counts">
              {cells.map((c) => (
                <div key={c.key} className={c.value === null ? 'hs-count hs-count-na' : 'hs-count'}>
                  <dt>{c.label}</dt>
                  <dd>{processed ? countText(c) : '—'}</dd>
                </div>
              ))}
            </dl>
            {detail.kind === 'video' ? (
              <>
                <h3 className="hs-card-subtitle">Honeybees on screen</h3>
                <dl className="hs-counts">
                  <div className="hs-count">
                    <dt>Mean per frame</dt>
                    <dd>
                      {processed && detail.on_screen
                        ? detail.on_screen.mean_honeybees.toFixed(1)
                        : '—'}
                    </dd>
                  </div>
                  <div className="hs-count">
                    <dt>Peak in one frame</dt>
                    <dd>{processed && detail.on_screen ? detail.on_screen.peak_honeybees : '—'}</dd>
                  </div>
                  <div className="hs-count">
                    <dt>Bee coverage</dt>
                    <dd>{processed ? formatPercent(detail.bee_coverage_pct) : '—'}</dd>
                  </div>
                </dl>
                <p className="hs-muted hs-small">
                  Unique insects: each insect counted once, by tracking it across the{' '}
                  {detail.frames.length} sampled frames. On screen: honeybees (workers, pollen bees,
                  drones) visible in one sampled frame, averaged over the frames and at their
                  highest, as the chart below shows. Bee coverage: share of the frame covered by
                  honeybees, mean over the frames.
                </p>
              </>
            ) : (
              <>
                <dl className="hs-counts">
                  <div className="hs-count">
                    <dt>Bee coverage</dt>
                    <dd>{processed ? formatPercent(detail.bee_coverage_pct) : '—'}</dd>
                  </div>
                </dl>
                <p className="hs-muted hs-small">
                  {corrected.includes(0)
                    ? 'Corrected counts: the boxes you saved for this photo, in place of the model\u2019s.'
                    : 'Detections in the picture: each insect the model found.'}{' '}
                  Bee coverage: share of the picture covered by honeybees.
                </p>
              </>
            )}
          </Card>
          <Card className="hs-section-card" elevation={1}>
            <h2 className="hs-card-title">Details</h2>
            <dl className="hs-facts">
              <dt>Kind</dt>
              <dd>
                <Tag minimal round>
                  {detail.kind}
                </Tag>{' '}
                {detail.format?.toUpperCase()} · {formatBytes(detail.size_bytes)}
              </dd>
              <dt>Location</dt>
              <dd>{orDash(detail.location)}</dd>
              <dt>Description</dt>
              <dd>{orDash(detail.description)}</dd>
              <dt>Model</dt>
              <dd>{detail.model ? `${detail.model.name} ${detail.model.version}` : '—'}</dd>
              <dt>Calibration</dt>
              <dd>
                {!processed
                  ? '—'
                  : (detail.summary?.calibration?.label ?? 'None: the model’s own settings')}
              </dd>
            </dl>
          </Card>
        </div>
      </div>
      {processed ? (
        <CorrectFrames
          fileId={detail.id}
          location={detail.location}
          onSaved={() => setVersion((v) => v + 1)}
          onCorrected={setCorrected}
        />
      ) : null}
      {processed ? (
        <FileHive
          // Asked again once a re-count finishes: whether it was counted with the entrance.
          key={detail.status_time}
          fileId={detail.id}
          name={detail.name}
          kind={detail.kind}
          traffic={detail.traffic ?? null}
        />
      ) : null}
      {series.length > 0 ? (
        <Card className="hs-section-card" elevation={1}>
          <h2 className="hs-card-title">Insects on screen over time</h2>
          <p className="hs-muted hs-small">
            Insects seen in each sampled frame: one insect staying in view counts in every frame, so
            these are not the unique counts above.
          </p>
          <LineChart
            title={`Insects on screen per analysed frame in ${detail.name}`}
            series={series}
          />
        </Card>
      ) : null}
    </div>
  );
}
