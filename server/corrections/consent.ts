/**
 * The user's consent to their corrected frames being used to improve the model: off by default;
 * the time it was given is kept (the export's manifest records it); revoking clears it and keeps
 * the revocation time, so no later export includes the user's frames.
 */
import type { Db } from '../db.ts';
import { isoWithOffset } from '../files/file-record.ts';
import {
  consentRow,
  correctedFrameCount,
  giveConsent,
  revokeConsent,
} from './corrections-repository.ts';

export interface ConsentState {
  consent: boolean;
  consent_at: string | null;
  revoked_at: string | null;
  corrected_frames: number;
}

export async function consentOf(db: Db, userId: number): Promise<ConsentState> {
  const row = await consentRow(db, userId);
  const counted = await correctedFrameCount(db, userId);
  const at = row?.training_consent_at ?? null;
  const revoked = row?.training_consent_revoked_at ?? null;
  return {
    consent: at !== null,
    consent_at: at && isoWithOffset(at),
    revoked_at: revoked && isoWithOffset(revoked),
    corrected_frames: counted,
  };
}

export async function setConsent(
  db: Db,
  userId: number,
  consent: boolean,
  now: Date,
): Promise<ConsentState> {
  const state = await consentOf(db, userId);
  if (consent && !state.consent) {
    await giveConsent(db, userId, now);
  } else if (!consent && state.consent) {
    await revokeConsent(db, userId, now);
  }
  return consentOf(db, userId);
}
