import './Stat.css';

/** One figure with its label, in a row of them (`hs-stats`) at the top of a page. */
export function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="hs-stat">
      <span className="hs-stat-value">{value}</span>
      <span className="hs-stat-label">{label}</span>
    </div>
  );
}
