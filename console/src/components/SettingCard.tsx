import { Card, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api.ts';
import { toastError } from '../lib/toaster.ts';
import { useResource } from '../lib/useResource.ts';
import './SettingCard.css';

/**
 * An account setting as a card with one switch: read with `load`, saved with `save(next)`, whose
 * answer replaces the setting. The switch is disabled until the setting has loaded and while a
 * save is in flight; `children` explain it from what loaded.
 */
export function SettingCard<T>({
  load,
  save,
  what,
  label,
  isOn,
  children,
}: {
  load: () => Promise<T>;
  save: (next: boolean) => Promise<T>;
  /** The setting in a load error's words: "your alert setting". */
  what: string;
  label: string;
  isOn: (setting: T) => boolean;
  children: (setting: T | null) => ReactNode;
}) {
  const setting = useResource(load, [what], (e) =>
    toastError('Error', `Failed to load ${what}. ${errorMessage(e)}`),
  );
  const [saving, setSaving] = useState(false);

  const change = (next: boolean) => {
    setSaving(true);
    save(next)
      .then(setting.setData)
      .catch((e: unknown) => toastError('Error', `Failed to save. ${errorMessage(e)}`))
      .finally(() => setSaving(false));
  };

  return (
    <Card className="hs-section-card hs-setting-card" elevation={1}>
      <Switch
        large
        checked={setting.data ? isOn(setting.data) : false}
        disabled={setting.data === null || saving}
        onChange={(e) => change(e.currentTarget.checked)}
        label={label}
      />
      {children(setting.data)}
    </Card>
  );
}
