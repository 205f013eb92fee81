// Configurable content (decisions section 6). The server may expose GET /api/public-config; these
// defaults apply when it does not.
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

function pick(body: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

export function loadConfig(): Promise<AppConfig> {
  cached ??= fetch('/api/public-config', {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  })
    .then(async (response) => {
      if (!response.ok) return DEFAULT_CONFIG;
      const body = (await response.json()) as Record<string, unknown>;
      return {
        contactEmail: pick(body, 'contact_email', 'contactEmail') ?? DEFAULT_CONFIG.contactEmail,
        researchArticleUrl:
          pick(body, 'research_article_url', 'researchArticleUrl') ??
          DEFAULT_CONFIG.researchArticleUrl,
        introVideoUrl:
          pick(body, 'intro_video_url', 'introVideoUrl') ?? DEFAULT_CONFIG.introVideoUrl,
        sampleVideoUrl:
          pick(body, 'sample_video_url', 'sampleVideoUrl', 'intro_video_url') ??
          DEFAULT_CONFIG.sampleVideoUrl,
      };
    })
    .catch(() => DEFAULT_CONFIG);
  return cached;
}

export function useAppConfig(): AppConfig {
  return useResource(loadConfig, []).data ?? DEFAULT_CONFIG;
}
