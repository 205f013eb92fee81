import { formatDateTime } from '../lib/format.ts';
import { call } from '../lib/api.ts';
import { SettingCard } from './SettingCard.tsx';

/**
 * The user's consent to their corrected frames being used to train the model
 * (GET/POST /api/account/training-consent): off by default, revocable, its time shown.
 */
export function TrainingConsentSetting() {
  return (
    <SettingCard
      load={() => call('GET /api/account/training-consent')}
      save={(next) => call('POST /api/account/training-consent', { body: { consent: next } })}
      what="your model-training setting"
      label="Allow hivesight to use my corrected frames to improve the model"
      isOn={(c) => c.consent}
    >
      {(state) => (
        <>
          <p className="hs-muted hs-small">
            When you correct the boxes on a frame, hivesight keeps that picture and your boxes. With
            this setting on, those corrected frames may be copied into the training sets used to
            teach the detector, so it counts better at hives like yours. A training set names your
            hive only by a code, never your name, e-mail address or the hive&apos;s name. This is
            off unless you turn it on, and you can turn it off at any time: your frames are then
            left out of every training set made afterwards (a model already trained keeps what it
            learnt from them). Your corrections fix your own counts whether this is on or off.
          </p>
          {state ? (
            <p className="hs-muted hs-small">
              {state.consent && state.consent_at
                ? `On since ${formatDateTime(state.consent_at)}.`
                : state.revoked_at
                  ? `Off since ${formatDateTime(state.revoked_at)}.`
                  : 'Off.'}{' '}
              {state.corrected_frames === 1
                ? 'You have corrected 1 frame.'
                : `You have corrected ${state.corrected_frames} frames.`}
            </p>
          ) : null}
        </>
      )}
    </SettingCard>
  );
}
