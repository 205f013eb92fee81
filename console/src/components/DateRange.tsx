import { FormGroup } from '@blueprintjs/core';
import { DateRangeInput3 } from '@blueprintjs/datetime2';
import { enUS } from 'date-fns/locale';
import type { Range } from '../lib/dateRange.ts';
import './DateRange.css';

/**
 * A labelled pair of US-format day inputs (File Search, hive history). The label points at the
 * start input; each input has its own accessible name ("Start date", "End date").
 */
export function DateRange({
  label,
  startId,
  helperText,
  value,
  onChange,
}: {
  label: string;
  /** The start input's id, which the label points at. */
  startId: string;
  helperText: string;
  value: Range;
  onChange: (next: Range) => void;
}) {
  return (
    <FormGroup label={label} labelFor={startId} helperText={helperText} className="hs-date-range">
      <DateRangeInput3
        value={value}
        onChange={(next) => onChange([next[0] ?? null, next[1] ?? null])}
        dateFnsFormat="MM/dd/yyyy"
        locale={enUS}
        allowSingleDayRange
        closeOnSelection
        contiguousCalendarMonths
        shortcuts={false}
        dayPickerProps={{ weekStartsOn: 0 }}
        startInputProps={{ id: startId, 'aria-label': 'Start date', placeholder: 'MM/DD/YYYY' }}
        endInputProps={{ 'aria-label': 'End date', placeholder: 'MM/DD/YYYY' }}
        popoverProps={{ placement: 'bottom-start' }}
      />
    </FormGroup>
  );
}
