/**
 * The owner's e-mail when their account is being guessed at (issue 54): sent when sign-ins to it
 * from all addresses together start being slowed, at most once per SIGN_IN_ALERT_EVERY_MS
 * whatever the number of processes (the claim is a conditional update of the user's row).
 */
import type { AppContext } from '../context.ts';
import type { MailMessage } from '../mailer.ts';
import type { UserRow } from '../users/users-repository.ts';
import { claimSignInAlert, releaseSignInAlert } from '../users/users-repository.ts';
import { waitText } from './rate-limit.ts';

export const SIGN_IN_ALERT_EVERY_MS = 24 * 3_600_000;

/**
 * `failures`: the account's failed sign-ins in the window (successes are not kept). Never
 * throws: the caller does not wait for it, and a failure is logged.
 */
export async function alertOwnerOfAttack(
  app: AppContext,
  user: UserRow,
  failures: number,
): Promise<void> {
  const at = app.clock.now();
  let claimed = false;
  try {
    claimed = await claimSignInAlert(app.db, user.id, at, SIGN_IN_ALERT_EVERY_MS);
    if (!claimed) return;
    await app.mailer.send(attackMail(app, user, failures));
    app.logger.warn('sign-in attack alert sent', { user_id: user.id, failures });
  } catch (err) {
    app.logger.error('sign-in attack alert e-mail failed', { error: String(err) });
    // Give the claim back, so the next slowed attempt tries to tell the owner again.
    if (claimed) await releaseSignInAlert(app.db, user.id, at).catch(() => {});
  }
}

function attackMail(app: AppContext, user: UserRow, failures: number): MailMessage {
  const window = waitText(app.config.rateLimitWindowSeconds);
  return {
    to: user.email,
    subject: 'Someone is trying to sign in to your HiveSight account',
    text:
      `Hello ${user.name},\n\n` +
      `In the last ${window} there were ${failures} failed attempts to sign in to your ` +
      `HiveSight account (${user.email}), more than mistyping makes. Someone may be trying ` +
      `to guess your password.\n\n` +
      `Your account is not locked. While this goes on, signing in may take a few seconds ` +
      `longer, except on a device you have signed in from before.\n\n` +
      `If your password is long and used nowhere else, nothing needs doing. Otherwise ` +
      `choose a new one: ${app.config.publicUrl}/forgot-password\n\n` +
      `We send this at most once a day.\n`,
  };
}
