/**
 * An entrance proposed from an analysed video's tracks (issue 43), kept with the result so the
 * console can offer it later without the video (erased after 24 hours) or its tracks (not
 * stored). Cheap: the engine clusters track starts and ends (`proposeEntrance`).
 */
import type { AnalysisOutput } from '../../engine/index.ts';
import { loadEngineModule } from '../files/engine.ts';
import type { StoredSummary } from '../files/file-row.ts';

export async function proposalFor(
  result: Pick<AnalysisOutput, 'media' | 'tracks' | 'frames'>,
): Promise<StoredSummary['entranceProposal'] | undefined> {
  if (result.media.kind !== 'video' || result.tracks.length === 0) return undefined;
  // Already loaded wherever an engine runs; the proposal is geometry on the track ends.
  const { proposeEntrance } = await loadEngineModule();
  const proposal = proposeEntrance(result.tracks, {
    width: result.media.width,
    height: result.media.height,
    lastFrame: result.frames.at(-1)?.index ?? 0,
  });
  return proposal ?? undefined;
}
