import { Button, Card, Tag, Tooltip } from '@blueprintjs/core';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader.tsx';
import { Stat } from '../components/Stat.tsx';
import {
  basisText,
  formatInterval,
  groupBasis,
  metricRows,
  significanceText,
} from '../lib/comparison.ts';
import type { Comparison } from '../lib/comparison.ts';
import { truncateName } from '../lib/format.ts';
import type { FileRecord } from '../lib/records.ts';
import './groups.css';
import './GroupResult.css';

export interface ComparisonState {
  result: Comparison;
  groupOne: FileRecord[];
  groupTwo: FileRecord[];
}

function isComparisonState(value: unknown): value is ComparisonState {
  const v = value as Partial<ComparisonState> | null;
  return (
    !!v && typeof v.result === 'object' && Array.isArray(v.groupOne) && Array.isArray(v.groupTwo)
  );
}

function FileName({ name }: { name: string }) {
  const { text, truncated } = truncateName(name);
  if (!truncated) return <span>{name}</span>;
  return (
    <Tooltip content={name} placement="top">
      <span tabIndex={0} aria-label={name} className="hs-truncated">
        {text}
      </span>
    </Tooltip>
  );
}

export function GroupResult() {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  if (!isComparisonState(state)) return <Navigate to="/file-grouping" replace />;
  const rows = metricRows(state.result);
  const basis = groupBasis(state.result);
  const total = state.groupOne.length + state.groupTwo.length;

  return (
    <div className="hs-page">
      <PageHeader
        title="Hive Health Comparison"
        subtitle={
          <Tag round large intent="success" icon="tick">
            Computation complete
          </Tag>
        }
        actions={
          <>
            <Button
              icon="arrow-left"
              text="Back to Grouping"
              onClick={() => navigate('/file-grouping')}
            />
            <Button
              intent="primary"
              icon="cloud-upload"
              text="Upload More Files"
              onClick={() => navigate('/file-upload-list')}
            />
          </>
        }
      />
      <div className="hs-stats">
        <Stat label="Total files" value={total} />
        <Stat label="Group 1 files" value={state.groupOne.length} />
        <Stat label="Group 2 files" value={state.groupTwo.length} />
      </div>
      <p className="hs-muted hs-comparison-basis">{basisText(basis)}</p>
      <div className="hs-metric-grid">
        {rows.map((row) => (
          <Card key={row.key} className="hs-metric-card" elevation={1}>
            <h2 className="hs-card-title">{row.label}</h2>
            <p className="hs-muted hs-small">{row.description}</p>
            <div className="hs-metric-pair">
              <div className="hs-metric hs-group-one">
                <span className="hs-metric-label">{row.label} · Group 1</span>
                <span className="hs-metric-value">{row.one}</span>
                <span className="hs-metric-ci">{formatInterval(row.oneInterval)}</span>
              </div>
              <div className="hs-metric hs-group-two">
                <span className="hs-metric-label">{row.label} · Group 2</span>
                <span className="hs-metric-value">{row.two}</span>
                <span className="hs-metric-ci">{formatInterval(row.twoInterval)}</span>
              </div>
            </div>
            <Tag
              round
              minimal={row.significant !== true}
              intent={row.significant ? 'warning' : 'none'}
              icon={row.significant ? 'issue' : row.significant === null ? 'info-sign' : 'equals'}
            >
              {significanceText(row)}
            </Tag>
          </Card>
        ))}
      </div>
      <div className="hs-two-col">
        {[
          { title: 'Group 1 files', files: state.groupOne },
          { title: 'Group 2 files', files: state.groupTwo },
        ].map((g) => (
          <Card key={g.title} className="hs-section-card" elevation={1}>
            <h2 className="hs-card-title">{g.title}</h2>
            <ul className="hs-group-list">
              {g.files.map((f, i) => (
                <li key={`${f.name}-${i}`}>
                  <FileName name={f.name} />
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
    </div>
  );
}
