import { Card, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import { errorMessage, get, post } from '../lib/api.ts';
import { toastError } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import './setting-card.css';

interface Settings {
  hornet_alerts: boolean;
}

/**
 * The user's hornet alert e-mails, on or off (GET/POST /api/account/settings). Shown to
 * Researcher plan holders, the only ones alerts go to.
 */
export function HornetAlertsSetting() {
  const settings = useResource(
    () => get<Settings>('/api/account/settings'),
    [],
    (e) => toastError('Error', `Failed to load your alert setting. ${errorMessage(e)}`),
  );
  const on = settings.data?.hornet_alerts ?? null;
  const [saving, setSaving] = useState(false);

  const change = (next: boolean) => {
    setSaving(true);
    post<Settings>('/api/account/settings', { hornet_alerts: next })
      .then(settings.setData)
      .catch((e: unknown) => toastError('Error', `Failed to save. ${errorMessage(e)}`))
      .finally(() => setSaving(false));
  };

  return (
    <Card className="hs-section-card hs-alert-setting" elevation={1}>
      <Switch
        large
        checked={on ?? false}
        disabled={on === null || saving}
        onChange={(e) => change(e.currentTarget.checked)}
        label="E-mail me when a hornet is seen"
      />
      <p className="hs-muted hs-small">
        Sent when one hornet stays in view on at least 3 sampled frames of a video, naming the time
        in the clip; at most one e-mail per hive location per hour.
      </p>
    </Card>
  );
}
