// A hive location's history (issue 43): activity, pollen share and drone share across its
// analysed files, one point per file at its recording time, within a date range, with a CSV of
// the series. Its owner's page; administrators can open any location's.
import {
  AnchorButton,
  Button,
  Callout,
  Card,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { DateRange } from '../components/DateRange.tsx';
import { HistoryChart } from '../components/HistoryChart.tsx';
import { LocationLoadFailure, LocationPageActions } from '../components/LocationPages.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { HiveAccuracy } from '../components/HiveAccuracy.tsx';
import { CalibrationCard } from '../components/CalibrationCard.tsx';
import type { HistoryQuery } from '../../../contract/schemas/history.ts';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage, routeLink } from '../lib/api.ts';
import { useResource } from '../lib/useResource.ts';
import { toApiDate } from '../lib/dateRange.ts';
import type { Range } from '../lib/dateRange.ts';
import { activityValue, ACTIVITY_SERIES, figure, SHARE_SERIES } from '../lib/history.ts';
import { formatDateTime } from '../lib/format.ts';
import {
  benchmarkSentence,
  densitySentence,
  LEVEL_WORDS,
  levelTally,
  verdictSentence,
} from '../lib/traffic.ts';
import type { CountConfidence } from '../lib/traffic.ts';
import '../components/hive.css';

// Bees crossing the entrance (0-10 a minute) and unique bees in view (hundreds) on one axis
// left the first flat at zero (issue 57): each has its own chart.
const TRAFFIC_SERIES = ACTIVITY_SERIES.filter((s) => s.key !== 'unique_bees_per_minute');
const UNIQUE_SERIES = ACTIVITY_SERIES.filter((s) => s.key === 'unique_bees_per_minute');

/** The picked days; the user's zone with them, as the server bounds them in it. */
function rangeQuery([start, end]: Range): HistoryQuery {
  // The picked days are the user's calendar days: the server needs their zone to bound them.
  const tz = start || end ? Intl.DateTimeFormat().resolvedOptions().timeZone : undefined;
  return {
    from: start ? toApiDate(start) : undefined,
    to: end ? toApiDate(end) : undefined,
    tz,
  };
}

type History = Answer<'GET /api/locations/:id/history'>;

export function HiveHistory() {
  const { id = '' } = useParams();
  const [range, setRange] = useState<Range>([null, null]);
  // A half-picked range (start only) waits for its end before asking again.
  const query = range[0] && !range[1] ? null : rangeQuery(range);
  // Compared by value: a new object of the same days does not ask again.
  const queryKey = JSON.stringify(query);
  const history = useResource(
    query === null ? null : () => call('GET /api/locations/:id/history', { params: { id }, query }),
    [id, queryKey],
  );
  const { data, loading } = history;
  const error = history.error === null ? null : errorMessage(history.error);

  if (error && !data) {
    return <LocationLoadFailure title="Unable to load this hive's history" error={error} />;
  }
  if (!data) return <Spinner className="hs-page-spinner" aria-label="Loading the hive history" />;

  const points = data.points;
  const counted = points.filter((p) => p.in_per_minute !== null).length;
  const uncounted = points.filter(
    (p) => activityValue(p, 'unique_bees_per_minute') !== null,
  ).length;

  return (
    <div className="hs-page">
      <PageHeader
        title={`Hive history: ${data.location.name}`}
        subtitle="Each point is one analysed file of this hive, at its recording time (the video's own time stamp when it has one, else the upload time)."
        actions={<LocationPageActions locationId={data.location.id} current="history" />}
      />
      <HiveAccuracy locationId={data.location.id} location={data.location.name} />
      <CalibrationCard locationId={data.location.id} />
      <Card className="hs-section-card" elevation={1}>
        <div className="hs-history-filters">
          <DateRange
            label="Recorded between"
            startId="history-start"
            helperText="MM/DD/YYYY, or all time when empty"
            value={range}
            onChange={setRange}
          />
          <Button
            icon="cross"
            variant="minimal"
            text="All time"
            disabled={!range[0] && !range[1]}
            onClick={() => setRange([null, null])}
          />
          <AnchorButton
            icon="download"
            intent="primary"
            text="Export CSV"
            href={routeLink('GET /api/locations/:id/history.csv', {
              params: { id },
              query: query ?? {},
            })}
            download
            disabled={points.length === 0}
          />
          {loading ? <Spinner size={20} aria-label="Updating" /> : null}
          <Tag minimal round>
            {points.length === 1 ? '1 file' : `${points.length} files`}
          </Tag>
        </div>
        {error ? (
          <Callout intent="danger" icon="error" className="hs-gap-top" role="alert">
            {error}
          </Callout>
        ) : null}
      </Card>
      {points.length === 0 ? (
        <NonIdealState
          icon="timeline-line-chart"
          title="No analysed files in this range"
          description="Upload videos or pictures of this hive; each analysed file adds a point."
        />
      ) : (
        <>
          {counted > 0 ? (
            <Card className="hs-section-card" elevation={1}>
              <h2 className="hs-card-title">Bees in and out</h2>
              <p className="hs-muted hs-small">
                Bees in and out per minute of video, where the hive&apos;s entrance was set when the
                video was counted ({counted} of {points.length} files). Hover or focus a point for
                its details; click it to open the file.
              </p>
              <HistoryChart
                title={`Bees in and out of ${data.location.name} per minute, per analysed file`}
                points={points}
                series={TRAFFIC_SERIES}
                unit=" /min"
              />
              {data.period ? <PeriodCertainty period={data.period} counted={counted} /> : null}
            </Card>
          ) : null}
          {uncounted > 0 ? (
            <Card className="hs-section-card" elevation={1}>
              <h2 className="hs-card-title">Unique bees</h2>
              <p className="hs-muted hs-small">
                Unique honeybees per minute of video, for the files counted without an entrance (
                {uncounted} of {points.length}): many more than cross it, so they have a chart of
                their own.
              </p>
              <HistoryChart
                title={`Unique bees of ${data.location.name} per minute, per analysed file`}
                points={points}
                series={UNIQUE_SERIES}
                unit=" /min"
              />
            </Card>
          ) : null}
          <Card className="hs-section-card" elevation={1}>
            <h2 className="hs-card-title">Pollen and drones</h2>
            <p className="hs-muted hs-small">
              Share of the file&apos;s honeybees carrying pollen, and share that are drones.
            </p>
            <HistoryChart
              title={`Pollen and drone shares of ${data.location.name} per analysed file`}
              points={points}
              series={SHARE_SERIES}
              unit=" %"
              percent
            />
          </Card>
          <Card className="hs-section-card" elevation={1}>
            <h2 className="hs-card-title">Files</h2>
            <div className="hs-history-table-wrap">
              <table
                className="hs-traffic-table hs-history-table"
                aria-label="Files in the hive history"
              >
                <thead>
                  <tr>
                    <th scope="col">Recorded</th>
                    <th scope="col">File</th>
                    <th scope="col">In /min</th>
                    <th scope="col">Out /min</th>
                    <th scope="col">Bees near entrance</th>
                    <th scope="col">Count</th>
                    <th scope="col">Unique bees /min</th>
                    <th scope="col">Pollen</th>
                    <th scope="col">Drones</th>
                  </tr>
                </thead>
                <tbody>
                  {[...points].reverse().map((p) => (
                    <tr key={p.file_id}>
                      <td data-label="Recorded">
                        {formatDateTime(p.recorded_at)}
                        {p.time_source === 'upload' ? ' (uploaded)' : ''}
                      </td>
                      <td data-label="File">
                        <Link to={`/files/${p.file_id}`}>{p.name}</Link>
                      </td>
                      <td data-label="In /min">{figure(p.in_per_minute)}</td>
                      <td data-label="Out /min">{figure(p.out_per_minute)}</td>
                      <td data-label="Bees near entrance">
                        {nearText(p.entrance_bees, p.count_confidence)}
                      </td>
                      <td data-label="Count">
                        {p.count_confidence ? LEVEL_WORDS[p.count_confidence.level] : '—'}
                      </td>
                      <td data-label="Unique bees /min">{figure(p.unique_bees_per_minute)}</td>
                      <td data-label="Pollen">{figure(p.pollen_pct, ' %')}</td>
                      <td data-label="Drones">{figure(p.drones_pct, ' %')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        </>
      )}
    </div>
  );
}

/** "11 (busy)": honeybees near the entrance per frame, with the benchmark band's word. */
function nearText(bees: number | null, confidence: CountConfidence | null): string {
  if (bees === null) return '—';
  return `${figure(bees)}${confidence ? ` (${confidence.crowding})` : ''}`;
}

/**
 * How sure the period's counts are (issue 56): its videos' entrance density together, the
 * benchmark at that density, and how many of the counts are close, fair and rough.
 */
function PeriodCertainty({
  period,
  counted,
}: {
  period: NonNullable<History['period']>;
  /** Videos of the range counted in and out, with or without a measured crowding. */
  counted: number;
}) {
  const { confidence, levels, videos } = period;
  const of =
    (videos === 1 ? 'the 1 counted video' : `the ${videos} counted videos`) +
    (videos < counted ? ' whose crowding was measured' : '');
  return (
    <section aria-label="How sure these counts are">
      <h3 className="hs-card-subtitle">How sure these counts are</h3>
      <p>
        Over {of}:{' '}
        {densitySentence(
          { mean_near: period.entrance_bees, peak_near: period.entrance_bees_peak },
          confidence?.crowding ?? null,
        ).replace(/^./, (c) => c.toLowerCase())}
      </p>
      {confidence ? (
        <p>
          {benchmarkSentence(confidence, period.entrance_bees)} {levelTally(levels)}{' '}
          <strong>{verdictSentence(confidence)}</strong>
        </p>
      ) : null}
    </section>
  );
}
