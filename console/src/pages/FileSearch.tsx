import {
  Button,
  Callout,
  Card,
  FormGroup,
  InputGroup,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { AdministratorsOnly } from '../components/RouteGuards.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { DateRange } from '../components/DateRange.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { Stat } from '../components/Stat.tsx';
import {
  fileNameColumn,
  mediaColumn,
  reportColumn,
  statusColumn,
  statusTimeColumn,
  textColumn,
} from '../components/cells.tsx';
import { ApiError, call } from '../lib/api.ts';
import { rangeProblem, searchDates, todayRange } from '../lib/dateRange.ts';
import type { Range } from '../lib/dateRange.ts';
import { distinctCount, filterSearchResults } from '../lib/filters.ts';
import { matchesLabel } from '../lib/format.ts';
import { toFileRecord } from '../lib/records.ts';
import type { FileRecord } from '../lib/records.ts';
import { toastError, toastInfo, toastWarning } from '../lib/toaster.ts';
import './FileSearch.css';

const SEARCH_FAILED = 'We could not complete the search. Please try again.';

// Headers as the spec words them on this screen (the uploaded-files list words its own).
const COLUMNS = [
  fileNameColumn('File name'),
  textColumn('email', 'Email'),
  statusColumn('Status'),
  mediaColumn('Media'),
  reportColumn('Results'),
  textColumn('location', 'Location'),
  statusTimeColumn('Status time'),
];

type Phase = 'idle' | 'loading' | 'done' | 'error';

export function FileSearch() {
  const [range, setRange] = useState<Range>(() => todayRange());
  const [location, setLocation] = useState('');
  const [description, setDescription] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [results, setResults] = useState<FileRecord[]>([]);
  const [failure, setFailure] = useState('');
  const [filter, setFilter] = useState('');
  const [forbidden, setForbidden] = useState(false);

  const shown = useMemo(() => filterSearchResults(results, filter), [results, filter]);

  const reset = () => {
    setRange(todayRange());
    setLocation('');
    setDescription('');
    setResults([]);
    setFilter('');
    setFailure('');
    setPhase('idle');
  };

  const search = async (event: FormEvent) => {
    event.preventDefault();
    const problem = rangeProblem(range);
    if (problem || !range[0] || !range[1]) {
      if (problem) toastWarning(problem.title, problem.message);
      return;
    }
    setPhase('loading');
    setFailure('');
    try {
      const rows = await call('POST /api/search-results-files', {
        body: {
          ...searchDates([range[0], range[1]]),
          file_description: description.trim(),
          location: location.trim(),
        },
      });
      const records = rows.map(toFileRecord).map((r) => ({
        ...r,
        name: r.name || 'Untitled',
        status: r.status || 'Unknown',
      }));
      setResults(records);
      setFilter('');
      setPhase('done');
      if (records.length === 0) {
        toastInfo(
          'No files matched.',
          'Try relaxing your filters or broadening the date range.',
          5000,
        );
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        setForbidden(true);
        return;
      }
      const message = error instanceof ApiError ? error.message : SEARCH_FAILED;
      setFailure(message);
      setPhase('error');
      toastError('Search failed', message, 6000);
    }
  };

  if (forbidden) return <AdministratorsOnly />;

  return (
    <div className="hs-page">
      <PageHeader
        title="File Search"
        subtitle="Find uploads across all users by date, location and description."
      />
      <Card className="hs-section-card" elevation={1}>
        <form className="hs-search-form" onSubmit={(e) => void search(e)} noValidate>
          <DateRange
            label="Date range"
            startId="search-start-date"
            helperText="MM/DD/YYYY"
            value={range}
            onChange={setRange}
          />
          <FormGroup label="Location" labelFor="search-location">
            <InputGroup
              id="search-location"
              leftIcon="map-marker"
              placeholder="e.g., Warehouse 4"
              value={location}
              onValueChange={setLocation}
            />
          </FormGroup>
          <FormGroup label="File description" labelFor="search-description" className="hs-grow">
            <InputGroup
              id="search-description"
              leftIcon="search-text"
              placeholder="Keywords found in the file"
              value={description}
              onValueChange={setDescription}
            />
          </FormGroup>
          <div className="hs-search-buttons">
            <Button icon="reset" text="Clear" onClick={reset} />
            <Button
              type="submit"
              intent="primary"
              icon="search"
              text="Search"
              loading={phase === 'loading'}
            />
          </div>
        </form>
      </Card>

      <Card className="hs-section-card" elevation={1} aria-live="polite">
        <div className="hs-card-toolbar">
          <h2 className="hs-card-title">
            Results{' '}
            <Tag round intent="primary">
              {matchesLabel(shown.length)}
            </Tag>
          </h2>
          <InputGroup
            type="search"
            leftIcon="filter"
            placeholder="Filter by file name, email, status, or location"
            aria-label="Filter by file name, email, status, or location"
            value={filter}
            onValueChange={setFilter}
            className="hs-filter-box"
            disabled={phase !== 'done'}
          />
        </div>
        <div className="hs-stats hs-stats-small">
          <Stat label="Total files" value={results.length} />
          <Stat label="Statuses" value={distinctCount(results.map((r) => r.status))} />
          <Stat label="Locations" value={distinctCount(results.map((r) => r.location))} />
        </div>
        {phase === 'idle' ? (
          <p className="hs-empty">Choose a date range and press Search.</p>
        ) : phase === 'loading' ? (
          <div className="hs-loading-row">
            <Spinner size={20} /> <span>Gathering your results…</span>
          </div>
        ) : phase === 'error' ? (
          <Callout intent="danger" icon="error" role="alert">
            {failure}
          </Callout>
        ) : results.length === 0 ? (
          <NonIdealState icon="search" title="No files found" />
        ) : shown.length === 0 ? (
          <NonIdealState icon="filter-remove" title="Nothing matches that filter" />
        ) : (
          <DataTable data={shown} columns={COLUMNS} label="Search results" />
        )}
      </Card>
    </div>
  );
}
