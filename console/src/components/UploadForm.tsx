import {
  Button,
  Callout,
  Card,
  FileInput,
  FormGroup,
  HTMLSelect,
  Icon,
  Spinner,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useRef, useState } from 'react';
import type { ChangeEvent, FormEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { call, callForm, errorMessage } from '../lib/api.ts';
import { formatBytes } from '../lib/format.ts';
import { toLocationNames } from '../lib/records.ts';
import { toastError, toastSuccess, toastWarning } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import {
  ACCEPT_ATTRIBUTE,
  MISSING_INFORMATION,
  exceedsLimit,
  isUploadComplete,
  sizeExceededMessage,
  uploadErrors,
} from '../lib/validation.ts';
import './UploadForm.css';

const TYPES_TEXT = 'MP4, AVI, JPG, JPEG or PNG';

/** A required field with its hint below it, or, once a submit was tried, what it lacks. */
function RequiredField({
  label,
  inputId,
  error,
  hint,
  children,
}: {
  label: string;
  inputId: string;
  error: string | undefined;
  hint: string;
  children: ReactNode;
}) {
  return (
    <FormGroup
      label={label}
      labelFor={inputId}
      labelInfo="(required)"
      intent={error ? 'danger' : 'none'}
      helperText={error ?? hint}
    >
      {children}
    </FormGroup>
  );
}

export function UploadForm({
  onUploaded,
  compact = false,
}: {
  onUploaded?: () => void;
  compact?: boolean;
}) {
  const auth = useAuth();
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [location, setLocation] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const limits = useResource(
    () => call('POST /api/valid-products-and-file-size'),
    [auth.email],
    (error) => toastError('Error', `Failed to fetch products. ${errorMessage(error)}`),
  );
  const size = limits.data?.max_file_size ?? 0;
  const maxSize = size > 0 ? size : null;
  const userLocations = useResource(
    () => call('POST /api/get-locations-user/').then(toLocationNames),
    [auth.email],
    (error) => toastError('Error', `Failed to fetch locations. ${errorMessage(error)}`),
  );
  const locations = userLocations.data ?? [];
  // Answered or failed at least once: only then may "no locations" be said.
  const locationsLoaded = userLocations.data !== null || userLocations.error !== null;

  const clearFile = () => {
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    if (picked && exceedsLimit(picked.size, maxSize)) {
      toastWarning('File Size Exceeded', sizeExceededMessage(maxSize));
      clearFile();
      return;
    }
    setFile(picked);
  };

  const input = { file, description, location };
  const errors = submitted ? uploadErrors(input) : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (uploading) return;
    setSubmitted(true);
    if (!isUploadComplete(input) || !file) {
      toastWarning(MISSING_INFORMATION.title, MISSING_INFORMATION.message);
      return;
    }
    setUploading(true);
    try {
      await callForm(
        'POST /api/upload_docs/',
        { file_description: description.trim(), location, email_address: auth.email },
        file,
      );
      toastSuccess('File uploaded', `File ${file.name} uploaded successfully.`, 5000);
      clearFile();
      setDescription('');
      setLocation('');
      setSubmitted(false);
      onUploaded?.();
    } catch (error) {
      toastError('Error uploading file', errorMessage(error, 'An unexpected error occurred.'));
    } finally {
      setUploading(false);
    }
  };

  const noLocations = locationsLoaded && locations.length === 0;
  const limitText = maxSize ? formatBytes(maxSize) : null;

  return (
    <div className={`hs-upload${compact ? ' hs-upload-compact' : ''}`}>
      <Card className="hs-upload-guidelines" elevation={0}>
        <h2 className="hs-card-title">
          <Icon icon="info-sign" className="hs-accent" /> Guidelines
        </h2>
        <ul className="hs-guidelines">
          <li>
            <strong>Accepted file types:</strong> {TYPES_TEXT}
          </li>
          {limitText ? (
            <li>
              <strong>Maximum file size:</strong> {limitText}
            </li>
          ) : null}
          <li>
            <strong>Available locations:</strong>{' '}
            <Tag round intent={locations.length > 0 ? 'success' : 'none'}>
              {locations.length}
            </Tag>
          </li>
          <li>
            Tip: a concise description (hive, timeframe, symptoms) helps us prioritize your upload.
          </li>
        </ul>
      </Card>
      <Card className="hs-upload-form" elevation={1}>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <RequiredField
            label="File"
            inputId="upload-file-input"
            error={errors.file}
            hint={`Accepted types: ${TYPES_TEXT}${limitText ? `. Maximum size: ${limitText}` : ''}.`}
          >
            {file ? (
              <div className="hs-chosen-file">
                <Icon icon={file.type.startsWith('video') ? 'video' : 'media'} />
                <span className="hs-chosen-name">{file.name}</span>
                <Tag minimal round>
                  {formatBytes(file.size)}
                </Tag>
                <Button
                  icon="cross"
                  variant="minimal"
                  intent="danger"
                  aria-label={`Remove ${file.name}`}
                  onClick={clearFile}
                />
              </div>
            ) : null}
            <FileInput
              fill
              text={file ? 'Choose another file…' : 'Choose a video or picture…'}
              buttonText="Browse"
              hasSelection={file !== null}
              inputProps={{
                id: 'upload-file-input',
                accept: ACCEPT_ATTRIBUTE,
                ref: fileInput,
                'aria-label': 'File',
              }}
              onInputChange={choose}
            />
          </RequiredField>
          <RequiredField
            label="Description"
            inputId="upload-description"
            error={errors.description}
            hint="Describe the hive, the timeframe or any symptoms you noticed."
          >
            <TextArea
              id="upload-description"
              fill
              className="hs-description"
              value={description}
              intent={errors.description ? 'danger' : 'none'}
              onChange={(e) => setDescription(e.target.value)}
              placeholder="e.g., Hive 3, morning flight, fewer foragers than last week"
            />
          </RequiredField>
          <RequiredField
            label="Location"
            inputId="upload-location"
            error={errors.location}
            hint="The location routes results to the right regional team."
          >
            <HTMLSelect
              id="upload-location"
              fill
              value={location}
              disabled={noLocations}
              onChange={(e) => setLocation(e.target.value)}
              className={errors.location ? 'hs-select-danger' : undefined}
            >
              <option value="">{noLocations ? 'Locations unavailable' : 'Select location'}</option>
              {locations.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </HTMLSelect>
          </RequiredField>
          {noLocations ? (
            <Callout intent="warning" icon="map-marker" className="hs-gap">
              No hive locations are registered for your account yet.{' '}
              <Link to="/locations">Add a hive location</Link> to upload.
            </Callout>
          ) : null}
          <Button
            type="submit"
            intent="primary"
            size="large"
            // Not `loading`: that swaps the label for a spinner, so the button would lose its
            // name while it is disabled; the spinner goes in the icon's place instead.
            icon={uploading ? <Spinner size={16} aria-label="Uploading" /> : 'cloud-upload'}
            disabled={uploading}
            aria-busy={uploading}
            text="Upload File"
          />
        </form>
      </Card>
    </div>
  );
}
