/**
 * The user's consent to their corrected frames being used to improve the model: off by default;
 * the time it was given is kept (the export's manifest records it); revoking clears it and keeps
 * the revocation time, so no later export includes the user's frames.
 */
import type { Knex } from 'knex';
import { typed } from '../db.ts';
import { isoWithOffset } from '../files/file-record.ts';

export interface ConsentState {
  consent: boolean;
  consent_at: string | null;
  revoked_at: string | null;
  corrected_frames: number;
}

interface ConsentRow {
  training_consent_at: string | null;
  training_consent_revoked_at: string | null;
}

export async function consentOf(db: Knex, userId: number): Promise<ConsentState> {
  const row = await typed<ConsentRow | undefined>(
    db('users').where('id', userId).first('training_consent_at', 'training_consent_revoked_at'),
  );
  const counted = await typed<Array<{ n: number | string }>>(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .where('files.user_id', userId)
      .count({ n: '*' }),
  );
  const at = row?.training_consent_at ?? null;
  const revoked = row?.training_consent_revoked_at ?? null;
  return {
    consent: at !== null,
    consent_at: at && isoWithOffset(at),
    revoked_at: revoked && isoWithOffset(revoked),
    corrected_frames: Number(counted[0]?.n ?? 0),
  };
}

export async function setConsent(
  db: Knex,
  userId: number,
  consent: boolean,
  now: Date,
): Promise<ConsentState> {
  const state = await consentOf(db, userId);
  if (consent && !state.consent) {
    await db('users').where('id', userId).update({ training_consent_at: now.toISOString() });
  } else if (!consent && state.consent) {
    await db('users')
      .where('id', userId)
      .update({ training_consent_at: null, training_consent_revoked_at: now.toISOString() });
  }
  return consentOf(db, userId);
}
