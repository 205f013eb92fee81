import { Alert, Button, Callout, Card, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader.tsx';
import type { Answer } from '../../../contract/client.ts';
import { call, errorMessage } from '../lib/api.ts';
import { toastSuccess } from '../lib/toaster.ts';
import './Locations.css';

type HiveLocation = Answer<'GET /api/locations'>['locations'][number];

const filesText = (n: number) => (n === 1 ? '1 file' : `${n} files`);

function LocationRow({
  location,
  onRename,
  onRemove,
}: {
  location: HiveLocation;
  onRename: (name: string) => Promise<boolean>;
  onRemove: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(location.name);
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const ok = await onRename(name);
    setSaving(false);
    if (ok) setEditing(false);
  };

  if (editing) {
    return (
      <li className="hs-hive-loc-row">
        <form className="hs-hive-loc-edit" onSubmit={(e) => void save(e)}>
          <InputGroup
            aria-label={`New name for ${location.name}`}
            value={name}
            onValueChange={setName}
            autoFocus
            fill
          />
          <Button type="submit" intent="primary" text="Save" loading={saving} />
          <Button
            text="Cancel"
            variant="minimal"
            onClick={() => {
              setName(location.name);
              setEditing(false);
            }}
          />
        </form>
      </li>
    );
  }
  return (
    <li className="hs-hive-loc-row">
      <div className="hs-hive-loc-name">
        <strong>{location.name}</strong>
        <Tag minimal round>
          {filesText(location.files)}
        </Tag>
      </div>
      <div className="hs-hive-loc-actions">
        <Link
          className="bp6-button"
          to={`/locations/${location.id}/entrance`}
          aria-label={`Entrance of ${location.name}`}
        >
          Entrance
        </Link>
        <Link
          className="bp6-button"
          to={`/locations/${location.id}/history`}
          aria-label={`History of ${location.name}`}
        >
          History
        </Link>
        <Button
          icon="edit"
          text="Rename"
          aria-label={`Rename ${location.name}`}
          onClick={() => setEditing(true)}
        />
        <Button
          icon="trash"
          intent="danger"
          variant="outlined"
          text="Remove"
          aria-label={`Remove ${location.name}`}
          onClick={onRemove}
        />
      </div>
    </li>
  );
}

/** The signed-in user's hive locations: the names an upload can be filed under. */
export function Locations() {
  const [locations, setLocations] = useState<HiveLocation[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<HiveLocation | null>(null);

  const load = useCallback(async () => {
    try {
      const body = await call('GET /api/locations');
      setLocations(body.locations);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessage(error));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setAdding(true);
    try {
      await call('POST /api/locations', { body: { name: newName } });
      toastSuccess('Location added', `${newName.trim()} can now be chosen for uploads.`);
      setNewName('');
      setProblem(null);
      await load();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setAdding(false);
    }
  };

  const rename = async (location: HiveLocation, name: string): Promise<boolean> => {
    try {
      await call('PATCH /api/locations/:id', { params: { id: location.id }, body: { name } });
      setProblem(null);
      await load();
      return true;
    } catch (error) {
      setProblem(errorMessage(error));
      return false;
    }
  };

  const remove = async (location: HiveLocation) => {
    setRemoving(null);
    try {
      await call('DELETE /api/locations/:id', { params: { id: location.id } });
      setProblem(null);
      await load();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  let list;
  if (loadError) {
    list = (
      <p className="hs-error-text" role="alert">
        Failed to fetch locations. {loadError}
      </p>
    );
  } else if (locations === null) {
    list = <Spinner className="hs-block-spinner" aria-label="Loading locations" />;
  } else if (locations.length === 0) {
    list = <p className="hs-empty">No hive locations yet. Add one above to start uploading.</p>;
  } else {
    list = (
      <ul className="hs-hive-loc-list" aria-label="Your hive locations">
        {locations.map((l) => (
          <LocationRow
            key={`${l.id}:${l.name}`}
            location={l}
            onRename={(name) => rename(l, name)}
            onRemove={() => setRemoving(l)}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="hs-page hs-locations">
      <PageHeader
        title="Hive Locations"
        subtitle="Each upload is filed under one of your hive locations. Renaming a location keeps its files with it."
        actions={<Link to="/file-upload-list">Go to uploads</Link>}
      />
      <Card className="hs-section-card" elevation={1}>
        <form className="hs-hive-loc-add" onSubmit={(e) => void add(e)} noValidate>
          <InputGroup
            id="new-location"
            aria-label="New hive location"
            placeholder="e.g., Orchard apiary, hive 3"
            leftIcon="map-marker"
            value={newName}
            onValueChange={setNewName}
            fill
          />
          <Button
            type="submit"
            intent="primary"
            icon="add"
            text="Add Location"
            loading={adding}
            disabled={newName.trim() === ''}
          />
        </form>
        {problem ? (
          <Callout intent="danger" icon="error" className="hs-gap-top" role="alert">
            {problem}
          </Callout>
        ) : null}
      </Card>
      <Card className="hs-section-card" elevation={1}>
        <h2 className="hs-card-title">
          Your locations{' '}
          {locations ? (
            <Tag minimal round>
              {locations.length}
            </Tag>
          ) : null}
        </h2>
        {list}
      </Card>
      <Alert
        isOpen={removing !== null}
        intent="danger"
        icon="trash"
        confirmButtonText="Remove"
        cancelButtonText="Cancel"
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          Remove <strong>{removing?.name}</strong>? It will no longer be offered for uploads.
        </p>
      </Alert>
    </div>
  );
}
