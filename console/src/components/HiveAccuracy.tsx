import { Callout } from '@blueprintjs/core';
import { get } from '../lib/api.ts';
import { useResource } from '../lib/useResource.ts';

interface Accuracy {
  frames: number;
  min_frames: number;
  sentence: string | null;
}

/**
 * How the model did on the frames the beekeeper corrected at this hive (from 5 frames on), for
 * a file's page (`fileId`), a hive's page (`locationId`) or the signed-in user's hive by name.
 * Nothing below 5 frames.
 */
export function HiveAccuracy(props: {
  fileId?: number;
  locationId?: number;
  location: string;
  version?: number;
}) {
  const { fileId, locationId, location, version } = props;
  const url =
    fileId !== undefined
      ? `/api/files/${fileId}/accuracy`
      : locationId !== undefined
        ? `/api/locations/${locationId}/accuracy`
        : `/api/hive-accuracy?location=${encodeURIComponent(location)}`;
  // No onError: the figure is a bonus; without it the page reads as before.
  const accuracy = useResource(() => get<Accuracy>(url), [url, version]).data;
  if (!accuracy?.sentence) return null;
  return (
    <Callout icon="endorsed" intent="primary" className="hs-gap" title={`Accuracy at ${location}`}>
      {accuracy.sentence} Counts are compared frame by frame; an insect counts as found when the
      model&apos;s box covers the corrected one by half or more.
    </Callout>
  );
}
