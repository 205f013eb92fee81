// Pieces shared by a hive location's own pages: its entrance and its history (issue 43).
import { Button, NonIdealState } from '@blueprintjs/core';
import { Link, useNavigate } from 'react-router-dom';

const OTHER_PAGE = {
  entrance: { icon: 'timeline-line-chart', text: 'Hive history', path: 'history' },
  history: { icon: 'flow-linear', text: 'Entrance', path: 'entrance' },
} as const;

/** The header buttons: back to the hive locations, and over to the location's other page. */
export function LocationPageActions({
  locationId,
  current,
}: {
  locationId: number;
  current: keyof typeof OTHER_PAGE;
}) {
  const navigate = useNavigate();
  const other = OTHER_PAGE[current];
  return (
    <>
      <Button icon="arrow-left" text="Hive locations" onClick={() => navigate('/locations')} />
      <Button
        icon={other.icon}
        text={other.text}
        onClick={() => navigate(`/locations/${locationId}/${other.path}`)}
      />
    </>
  );
}

/** The page in place of one that could not load, with the way back to the hive locations. */
export function LocationLoadFailure({ title, error }: { title: string; error: string }) {
  return (
    <div className="hs-page">
      <NonIdealState
        icon="error"
        title={title}
        description={error}
        action={<Link to="/locations">Back to hive locations</Link>}
      />
    </div>
  );
}
