import { call } from '../lib/api.ts';
import { SettingCard } from './SettingCard.tsx';

/**
 * The user's hornet alert e-mails, on or off (GET/POST /api/account/settings). Shown to
 * Researcher plan holders, the only ones alerts go to.
 */
export function HornetAlertsSetting() {
  return (
    <SettingCard
      load={() => call('GET /api/account/settings')}
      save={(next) => call('POST /api/account/settings', { body: { hornet_alerts: next } })}
      what="your alert setting"
      label="E-mail me when a hornet is seen"
      isOn={(s) => s.hornet_alerts}
    >
      {() => (
        <p className="hs-muted hs-small">
          Sent when one hornet stays in view on at least 3 sampled frames of a video, naming the
          time in the clip; at most one e-mail per hive location per hour.
        </p>
      )}
    </SettingCard>
  );
}
