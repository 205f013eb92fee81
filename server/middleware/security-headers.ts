/**
 * Security headers on every answer. The built console loads only its own hashed scripts and
 * styles (no inline script: console/index.html has one module script tag, Vite writes it as a
 * file); Blueprint and React set inline `style` attributes, and Blueprint's icons and popovers
 * use data: images and inline styles, so styles allow 'unsafe-inline' (scripts never do). The
 * intro video may come from another origin (INTRO_VIDEO_URL), which media-src then names.
 *
 * API answers default to `Cache-Control: no-store` (they carry one signed-in user's data); a
 * route that knows better (media ranges, exports) sets its own.
 */
import type { Middleware } from 'koa';
import type { Config } from '../config.ts';

export function contentSecurityPolicy(config: Pick<Config, 'introVideoUrl'>): string {
  const media = ["'self'", 'blob:'];
  try {
    const intro = new URL(config.introVideoUrl);
    if (intro.protocol === 'https:' || intro.protocol === 'http:') media.push(intro.origin);
  } catch {
    // a relative URL: served by this origin
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `media-src ${media.join(' ')}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), ' +
  'magnetometer=(), gyroscope=(), accelerometer=(), midi=(), display-capture=(), interest-cohort=()';

/** One year, the usual preload-list minimum. */
const HSTS = 'max-age=31536000; includeSubDomains';

export function securityHeaders(config: Pick<Config, 'introVideoUrl' | 'publicUrl'>): Middleware {
  const csp = contentSecurityPolicy(config);
  const https = config.publicUrl.startsWith('https:');
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    if (https) ctx.set('Strict-Transport-Security', HSTS);
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
