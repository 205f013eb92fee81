// Entrance traffic of one video on the file detail page (issue 43): bees in and out, net flow,
// loops, the rates per minute, the passages per minute of video and their running totals.
import { Card } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { LineChart } from './LineChart.tsx';
import type { Answer } from '../../../contract/client.ts';
import { call } from '../lib/api.ts';
import { CountAgainButton } from './CountAgain.tsx';
import { useResource } from '../lib/useResource.ts';
import type { FileTraffic } from '../lib/traffic.ts';
import {
  benchmarkSentence,
  cumulativeSteps,
  densitySentence,
  minuteLabel,
  perMinuteText,
  verdictSentence,
} from '../lib/traffic.ts';
import './hive.css';

/** Okabe-Ito, apart from the class colours of the counts chart. */
const IN_COLOR = '#009e73';
const OUT_COLOR = '#cc79a7';

type Hive = Answer<'GET /api/files/:id/hive'>;

/** The file's hive location and its entrance (null until known, or when it has none). */
function useHiveOf(fileId: number): Hive | null {
  // No onError: a location renamed away or removed leaves the page without hive links.
  return useResource(() => call('GET /api/files/:id/hive', { params: { id: fileId } }), [fileId])
    .data;
}

/** Queues the video to be counted with the location's current entrance, then reloads. */
function CountAgain({ fileId, text }: { fileId: number; text: string }) {
  const navigate = useNavigate();
  return (
    <CountAgainButton
      fileIds={[fileId]}
      text={text}
      onQueued={(queued) => {
        if (queued > 0) void navigate(0);
      }}
    />
  );
}

/**
 * The file's entrance traffic when its location had an entrance, else a short note with links
 * to set the entrance and to the hive's history.
 */
export function FileHive({
  fileId,
  name,
  kind,
  traffic,
}: {
  fileId: number;
  name: string;
  kind: 'image' | 'video';
  traffic: FileTraffic | null;
}) {
  const hive = useHiveOf(fileId);
  // The location's entrance was set or moved after this video was counted.
  const stale =
    kind === 'video' && hive !== null && hive.entrance_set && !hive.counted_with_entrance;
  if (traffic)
    return (
      <TrafficCard
        traffic={traffic}
        name={name}
        locationId={hive?.location.id ?? null}
        recount={
          stale && hive.media_kept ? (
            <p className="hs-muted hs-small">
              The entrance of {hive.location.name} was moved after this video was counted.{' '}
              <CountAgain fileId={fileId} text="Count again with the current entrance" />
            </p>
          ) : null
        }
      />
    );
  if (!hive) return null;
  const { location } = hive;
  return (
    <Card className="hs-section-card" elevation={1}>
      <h2 className="hs-card-title">Hive {location.name}</h2>
      <p className="hs-muted hs-small">
        {kind === 'video'
          ? stale
            ? `This video was analysed before ${location.name} had its entrance, so it has no bees in and out yet. `
            : 'This video was counted without an entrance, so it has no bees in and out. '
          : ''}
        <Link to={`/locations/${location.id}/history`}>See this hive&apos;s history</Link>
        {' · '}
        <Link to={`/locations/${location.id}/entrance`}>
          {hive.entrance_set ? 'Its entrance' : 'Set its entrance'}
        </Link>
      </p>
      {stale ? (
        hive.media_kept ? (
          <CountAgain fileId={fileId} text="Count bees in and out" />
        ) : (
          <p className="hs-muted hs-small">
            The video was erased after processing; upload it again to count it.
          </p>
        )
      ) : null}
    </Card>
  );
}

export function TrafficCard({
  traffic,
  name,
  locationId,
  recount = null,
}: {
  traffic: FileTraffic;
  name: string;
  /** The file's hive location, for a link to its history; null when unknown. */
  locationId: number | null;
  /** An offer to count the video again when the entrance moved since. */
  recount?: ReactNode;
}) {
  const endS = traffic.per_minute.at(-1)?.end_s ?? 0;
  const facts: Array<[string, string]> = [
    ['Bees in', String(traffic.bees_in)],
    ['Bees out', String(traffic.bees_out)],
    ['Net flow', `${traffic.net_flow > 0 ? '+' : ''}${traffic.net_flow}`],
    ['Loops', String(traffic.loops)],
    ['In per minute', perMinuteText(traffic.in_per_minute)],
    ['Out per minute', perMinuteText(traffic.out_per_minute)],
  ];
  return (
    <Card className="hs-section-card" elevation={1}>
      <h2 className="hs-card-title">Entrance traffic</h2>
      <dl className="hs-counts" aria-label="Entrance traffic">
        {facts.map(([label, value]) => (
          <div key={label} className="hs-count">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="hs-muted hs-small">
        Honeybees crossing the hive location&apos;s entrance: in from the field side, out from the
        hive side, each bee once per passage. Loops: bees that left and came back within seconds
        (orientation flights), counted as neither. Per minute: passages divided by the video&apos;s
        length.
        {locationId !== null ? (
          <>
            {' '}
            <Link to={`/locations/${locationId}/history`}>See this hive&apos;s history</Link>.
          </>
        ) : null}
      </p>
      {recount}
      <CountCertainty traffic={traffic} />
      <h3 className="hs-card-subtitle">Traffic per minute</h3>
      <table className="hs-traffic-table">
        <thead>
          <tr>
            <th scope="col">Minute of video</th>
            <th scope="col">In</th>
            <th scope="col">Out</th>
            <th scope="col">Loops</th>
          </tr>
        </thead>
        <tbody>
          {traffic.per_minute.map((row) => (
            <tr key={row.minute}>
              <td>{minuteLabel(row)}</td>
              <td>{row.in}</td>
              <td>{row.out}</td>
              <td>{row.loops}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {endS > 0 ? (
        <LineChart
          title={`Bees in and out over time in ${name}`}
          description="Running totals of bees in and out"
          series={[
            {
              label: 'Bees in (total)',
              color: IN_COLOR,
              points: cumulativeSteps(traffic.events, 'in', endS),
            },
            {
              label: 'Bees out (total)',
              color: OUT_COLOR,
              points: cumulativeSteps(traffic.events, 'out', endS),
            },
          ]}
        />
      ) : null}
    </Card>
  );
}

/**
 * How sure the count is (issue 56): how crowded the entrance was, and what the synthetic
 * benchmark, whose true passages are known, measured at that density.
 */
function CountCertainty({ traffic }: { traffic: FileTraffic }) {
  const { density, confidence } = traffic;
  return (
    <>
      <h3 className="hs-card-subtitle">How sure this count is</h3>
      {density ? (
        <>
          <p>{densitySentence(density, confidence?.crowding ?? null)}</p>
          {confidence ? (
            <>
              <p>
                {benchmarkSentence(confidence, density.mean_near)}{' '}
                <strong>{verdictSentence(confidence)}</strong>
              </p>
              <p className="hs-muted hs-small">
                The benchmark: clips of simulated bees at two real hive entrances, where every
                passage is known, sampled as your videos are ({confidence.sample_fps} frames a
                second). Measured by the {confidence.source}.
              </p>
            </>
          ) : null}
        </>
      ) : (
        <p className="hs-muted hs-small">
          This video was counted before HiveSight measured how crowded the entrance was, so how sure
          its count is cannot be said.
        </p>
      )}
    </>
  );
}
