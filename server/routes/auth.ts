/**
 * Identity calls (spec 7, decisions.md 1/1b): sign-in, registration, password reset, logout, me.
 * `email_address` in bodies never selects whose data is used: the session cookie does.
 */
import { Router } from '@koa/router';
import { EMAIL_RE } from '../config.ts';
import type { AppContext, AuthState } from '../context.ts';
import { currentUser } from '../context.ts';
import { bodyOf, stringField } from '../middleware/body.ts';
import { ServiceUnavailable, ValidationError } from '../errors.ts';
import { dummyPasswordHash, verifyPassword } from '../auth/passwords.ts';
import { MAX_PASSWORD_LENGTH, passwordProblem } from '../auth/password-rules.ts';
import { DEVICE_COOKIE, deviceCookie, knownDeviceId, newDeviceId } from '../auth/known-devices.ts';
import { alertOwnerOfAttack } from '../auth/sign-in-alert.ts';
import {
  PAIR_KEY,
  deviceRule,
  deviceTrusted,
  failuresUnderAttack,
  forgotRules,
  registerAllRule,
  registerIpRule,
  signInRules,
  throttle,
} from '../auth/throttle.ts';
import { SESSION_COOKIE, clearedSessionCookie, sessionCookie } from '../auth/sessions.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import {
  cleanLocations,
  createUser,
  findUserByEmail,
  normaliseEmail,
  setPassword,
} from '../users/users-repository.ts';
import { activeProducts } from '../users/plans.ts';
import { cleanText } from '../text.ts';
import { today } from '../clock.ts';
import {
  claimPasswordReset,
  findPasswordReset,
  insertPasswordReset,
  spendPasswordResets,
} from '../auth/password-resets-repository.ts';

export { MIN_PASSWORD_LENGTH } from '../auth/password-rules.ts';
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const MAX_LOCATIONS = 100;

export function authRoutes(app: AppContext): Router {
  const router = new Router();
  const { config, db, clock, sessions } = app;

  // Spec contract: the role string on success, an empty body on bad credentials (200, so the
  // console's "empty means invalid" works); also sets the session and known-device cookies.
  router.post('/api/check-valid-user/', async (ctx) => {
    const body = bodyOf(ctx);
    const email = stringField(body, 'email_address');
    const password = typeof body.password === 'string' ? body.password : '';
    const address = normaliseEmail(email);
    const user =
      email && password.length <= MAX_PASSWORD_LENGTH
        ? await findUserByEmail(db, email)
        : undefined;
    const cookieDevice = user ? knownDeviceId(ctx.cookies.get(DEVICE_COOKIE), user) : null;
    const device = cookieDevice && (await deviceTrusted(app, cookieDevice)) ? cookieDevice : null;
    const rules = device ? [deviceRule(device)] : signInRules(config, ctx.ip, address);
    // The waits come before the password is checked: the right one waits as long as a wrong one.
    const { hitIds, counts } = await throttle(app, rules, {
      action: 'sign-in',
      what: 'sign-in attempts',
      ip: ctx.ip,
      email: address,
    });
    const failures = failuresUnderAttack(config, rules, counts);
    // Not awaited: the answer must not take longer for an existing account than for none.
    if (user && failures > 0) void alertOwnerOfAttack(app, user, failures);
    // Verify against a dummy hash for unknown e-mails so response time does not reveal accounts.
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    ctx.status = 200;
    if (!user || !ok || password === '') {
      ctx.type = 'text/plain';
      ctx.body = '';
      return;
    }
    // Success forgets this address's (or device's) failures for the account and uncounts
    // itself, so the owner's own sign-ins never use up the allowance. The count over every
    // address stays: it is what slows a distributed guess, and the owner must not reset it.
    await app.limiter.forget(hitIds);
    const cleared = rules.filter((r) => r.key.startsWith(PAIR_KEY)).map((r) => r.key);
    if (cookieDevice) cleared.push(deviceRule(cookieDevice).key);
    await app.limiter.reset(cleared);
    const token = await sessions.create(user.id);
    ctx.append(
      'Set-Cookie',
      sessionCookie(token, { secure: config.secureCookies, maxAgeSeconds: sessions.idleSeconds }),
    );
    ctx.append(
      'Set-Cookie',
      deviceCookie(user, cookieDevice ?? newDeviceId(), config.secureCookies),
    );
    ctx.type = 'text/plain';
    ctx.body = user.role;
  });

  router.post('/api/register-user/', async (ctx) => {
    const registration = {
      action: 'registration',
      what: 'registrations from your network',
      ip: ctx.ip,
    };
    await throttle(app, [registerIpRule(config, ctx.ip)], registration);
    const body = bodyOf(ctx);
    const name = cleanText(stringField(body, 'name'));
    const email = stringField(body, 'email');
    const password = typeof body.password === 'string' ? body.password : '';
    const confirm = typeof body.confirmPassword === 'string' ? body.confirmPassword : '';
    const fields: Record<string, string> = {};
    if (!name) fields.name = 'Name is required';
    else if (name.length > 200) fields.name = 'Name must be at most 200 characters';
    if (!email) fields.email = 'Email is required';
    else if (!EMAIL_RE.test(email) || email.length > 320) fields.email = 'Invalid email';
    const weak = passwordProblem(password, email);
    if (weak) fields.password = weak;
    if (!confirm) fields.confirmPassword = 'Confirm Password is required';
    else if (confirm !== password) fields.confirmPassword = 'Passwords must match';
    const locations = Array.isArray(body.locations) ? (body.locations as unknown[]) : [];
    // One row per location: thousands of them (a 100 KB body holds ~12 000) made SQLite's
    // insert fail (500) and gave PostgreSQL one user with thousands of hives.
    if (cleanLocations(locations).length > MAX_LOCATIONS)
      fields.locations = `Register at most ${MAX_LOCATIONS} hive locations`;
    if (Object.keys(fields).length > 0) throw ValidationError.of(fields);
    // Counted only once valid, so that nobody slows real users down with bad requests.
    const { hitIds } = await throttle(app, [registerAllRule(config)], registration);
    const user = await createUser(db, clock, { email, name, password, locations }).catch(
      async (err: unknown) => {
        await app.limiter.forget(hitIds);
        throw err;
      },
    );
    ctx.status = 201;
    ctx.body = { message: 'Registration successful!', email: user.email };
  });

  router.post('/api/forgot-password', async (ctx) => {
    const email = stringField(bodyOf(ctx), 'email_address');
    const address = normaliseEmail(email);
    await throttle(app, forgotRules(config, ctx.ip, address), {
      action: 'forgot-password',
      what: 'password reset requests',
      ip: ctx.ip,
      email: address,
    });
    const user = email && EMAIL_RE.test(email) ? await findUserByEmail(db, email) : undefined;
    if (!user) {
      ctx.body = { message: 'INVALID_EMAIL_ADDRESS' };
      return;
    }
    const { token, hash } = newToken();
    const now = clock.now();
    await insertPasswordReset(db, {
      userId: user.id,
      tokenHash: hash,
      now,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    });
    const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    try {
      await app.mailer.send({
        to: user.email,
        subject: 'Reset your HiveSight password',
        text:
          `Hello ${user.name},\n\nSomeone (hopefully you) asked to reset the password of your HiveSight account.\n` +
          `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
          `If you did not ask for this, ignore this e-mail; your password stays the same.\n`,
      });
    } catch (err) {
      app.logger.error('reset e-mail failed', { error: String(err) });
      throw new ServiceUnavailable('We could not send the reset e-mail. Please try again later.');
    }
    ctx.body = { message: 'SUCCESS' };
  });

  router.post('/api/reset-password', async (ctx) => {
    const body = bodyOf(ctx);
    const token = stringField(body, 'token');
    const password = typeof body.new_password === 'string' ? body.new_password : '';
    if (!password) throw ValidationError.of({ new_password: 'Password is required' });
    if (password.length > MAX_PASSWORD_LENGTH)
      throw ValidationError.of({ new_password: 'Password is too long' });
    const invalid = (): ValidationError =>
      ValidationError.of({
        token: 'This reset link is invalid or has expired. Please request a new one.',
      });
    if (!token) throw invalid();
    const now = clock.now().toISOString();
    const hash = hashToken(token);
    const row = await findPasswordReset(db, hash);
    // The rules are checked before the token is spent, so a refused password keeps the link.
    const weak = passwordProblem(password, row?.email ?? '');
    if (weak) throw ValidationError.of({ new_password: weak });
    if (!row) throw invalid();
    // Claim the token atomically: only one request can flip used_at from null.
    if (!(await claimPasswordReset(db, row.id, now))) throw invalid();
    const userId = row.user_id;
    await setPassword(db, userId, password);
    await spendPasswordResets(db, userId, now);
    const state = ctx.state as Partial<AuthState>;
    await sessions.revokeAllForUser(
      userId,
      state.user?.id === userId ? state.sessionId : undefined,
    );
    ctx.body = { message: 'SUCCESS' };
  });

  router.post('/api/logout', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (token) await sessions.revoke(hashToken(token));
    ctx.append('Set-Cookie', clearedSessionCookie(config.secureCookies));
    ctx.body = { message: 'SUCCESS' };
  });

  router.get('/api/me', app.requireUser, async (ctx) => {
    const user = currentUser(ctx);
    ctx.body = {
      email: user.email,
      name: user.name,
      role: user.role,
      products: await activeProducts(app.readDb, user.id, today(clock)),
    };
  });

  return router;
}
