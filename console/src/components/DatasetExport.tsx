import { Button, Callout, Card, Checkbox } from '@blueprintjs/core';
import { useState } from 'react';
import { ApiError, errorMessage, getBlob, saveBlob } from '../lib/api.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';
import './frame-editor.css';

/**
 * Administrators' training export (issue 46): consenting users' corrected frames as a YOLO
 * dataset in one .tar (GET /api/admin/corrections-dataset.tar), the same as
 * `hivesight dataset export`.
 */
export function DatasetExport() {
  const [reviewedOnly, setReviewedOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Why nothing was downloaded, when there was nothing to export (409). */
  const [nothing, setNothing] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setNothing(null);
    try {
      const blob = await getBlob('GET /api/admin/corrections-dataset.tar', {
        query: { reviewed_only: reviewedOnly ? '1' : undefined },
      });
      saveBlob(blob, `hivesight-corrections-${new Date().toISOString().slice(0, 10)}.tar`);
      toastSuccess('Download started.', undefined, 2000);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) setNothing(errorMessage(e));
      else toastError('Download failed', errorMessage(e), 4000);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="hs-section-card" elevation={1}>
      <h2 className="hs-card-title">Training data from corrected frames</h2>
      <p className="hs-muted hs-small">
        The frames users corrected, from users who allowed their use to improve the model, as a YOLO
        dataset (images, labels, classes.txt and a manifest naming each hive by a code) for
        hivesight eval and training. Users who revoked their consent are left out.
      </p>
      <div className="hs-frame-picker">
        <Checkbox
          checked={reviewedOnly}
          onChange={(e) => {
            setReviewedOnly(e.currentTarget.checked);
            setNothing(null);
          }}
          label="Reviewed frames only"
        />
        <Button
          icon="archive"
          text="Export training dataset"
          loading={busy}
          onClick={() => void download()}
        />
      </div>
      {nothing ? (
        <Callout intent="primary" icon="info-sign" role="status" className="hs-gap">
          {nothing}. Frames count once a user has corrected them and allowed their use.
        </Callout>
      ) : null}
    </Card>
  );
}
