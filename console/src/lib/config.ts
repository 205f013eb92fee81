// Configurable content (decisions section 6), from GET /api/public-config; these defaults apply
// where it is empty or unreachable.
import { call } from './api.ts';
import { useResource } from './useResource.ts';

export interface AppConfig {
  contactEmail: string;
  researchArticleUrl: string;
  introVideoUrl: string;
  sampleVideoUrl: string;
}

export const DEFAULT_CONFIG: AppConfig = {
  contactEmail: 'support@hivesight.app',
  researchArticleUrl: 'https://doi.org/10.3390/agriculture15101019',
  introVideoUrl: '/intro.mp4',
  sampleVideoUrl: '/intro.mp4',
};

let cached: Promise<AppConfig> | null = null;

/** The server's configurable content; an empty value or a failed call keeps the default. */
export function loadConfig(): Promise<AppConfig> {
  cached ??= call('GET /api/public-config')
    .then((c) => ({
      contactEmail: c.contact_email.trim() || DEFAULT_CONFIG.contactEmail,
      researchArticleUrl: c.research_article_url.trim() || DEFAULT_CONFIG.researchArticleUrl,
      introVideoUrl: c.intro_video_url.trim() || DEFAULT_CONFIG.introVideoUrl,
      sampleVideoUrl: c.intro_video_url.trim() || DEFAULT_CONFIG.sampleVideoUrl,
    }))
    .catch(() => DEFAULT_CONFIG);
  return cached;
}

export function useAppConfig(): AppConfig {
  return useResource(loadConfig, []).data ?? DEFAULT_CONFIG;
}
