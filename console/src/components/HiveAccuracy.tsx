import { Callout } from '@blueprintjs/core';
import { call } from '../lib/api.ts';
import { useResource } from '../lib/useResource.ts';

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
  const load = () =>
    fileId !== undefined
      ? call('GET /api/files/:id/accuracy', { params: { id: fileId } })
      : locationId !== undefined
        ? call('GET /api/locations/:id/accuracy', { params: { id: locationId } })
        : call('GET /api/hive-accuracy', { query: { location } });
  // No onError: the figure is a bonus; without it the page reads as before.
  const accuracy = useResource(load, [fileId, locationId, location, version]).data;
  if (!accuracy?.sentence) return null;
  return (
    <Callout icon="endorsed" intent="primary" className="hs-gap" title={`Accuracy at ${location}`}>
      {accuracy.sentence} Counts are compared frame by frame; an insect counts as found when the
      model&apos;s box covers the corrected one by half or more.
    </Callout>
  );
}
