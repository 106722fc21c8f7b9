/**
 * The job form's pay: how the package text is read ("Read as ₹8,00,000 - ₹12,00,000 a year"), and
 * the admin's own range when that reading is wrong or there is none. The pay filters and Google
 * read this pay; the package text stays what cards and pages show.
 */
import { useId, useState } from "react";
import {
  describePay,
  type Pay,
  PAY_PERIODS,
  type PayPeriod,
  readPay,
} from "../../../kv/jobs/pay.ts";
import { SelectField, TextField } from "../components/form.tsx";

const PERIOD_LABELS: Record<PayPeriod, string> = {
  year: "a year",
  month: "a month",
  hour: "an hour",
};

/**
 * Rupees typed: digits only (commas, spaces and ₹ allowed), empty for an open end; anything else
 * is NaN, which the job's check refuses on saving.
 */
const rupeesOf = (text: string): number | null => {
  const digits = text.replace(/[,\s₹]/g, "");
  return digits === "" ? null : /^\d+$/.test(digits) ? Number(digits) : NaN;
};

/** Both ends are whole rupees or open. */
const isWhole = (pay: Pay) =>
  [pay.min, pay.max].every((end) => end === null || Number.isSafeInteger(end));

export function PayField({ label, pay, estPackage, error, onChange }: {
  label: string;
  /** The admin's own pay, or null to read it from the package. */
  pay: Pay | null;
  estPackage: string;
  error: string | undefined;
  onChange: (pay: Pay | null) => void;
}) {
  const id = useId();
  const read = readPay(estPackage);
  const reading = read
    ? `Read as ${describePay(read)}`
    : estPackage.trim()
    ? "Not read as a pay: set it below to show this job in salary filters"
    : "No package given";
  const own = pay !== null;
  return (
    <div className="sm:col-span-2 space-y-2" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="text-sm font-medium">{label}</p>
      <p className="text-sm text-slate-600" aria-live="polite" data-testid="pay-reading">
        {own
          ? isWhole(pay) ? `Set by hand: ${describePay(pay)}` : "Enter whole rupees, digits only"
          : reading}
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={own}
          onChange={(event) =>
            onChange(
              event.target.checked
                ? read ?? { min: null, max: null, period: "year", currency: "INR" }
                : null,
            )}
        />
        Set the pay myself
      </label>
      {own && (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <RupeesField
            label="Minimum (₹)"
            rupees={pay.min}
            onChange={(min) => onChange({ ...pay, min })}
            error={error}
          />
          <RupeesField
            label="Maximum (₹)"
            rupees={pay.max}
            onChange={(max) => onChange({ ...pay, max })}
            error={undefined}
          />
          <SelectField
            label="Per"
            value={pay.period}
            onChange={(period) => onChange({ ...pay, period: period as PayPeriod })}
            options={PAY_PERIODS.map((period) => [period, PERIOD_LABELS[period]] as const)}
            error={undefined}
          />
        </div>
      )}
    </div>
  );
}

/**
 * One end of the pay. The box keeps what was typed rather than showing the number read from it:
 * that showed "12k" as "NaN" (and every key after it too) and dropped the point of "5.5" as it was
 * typed, making it 55.
 */
function RupeesField({ label, rupees, error, onChange }: {
  label: string;
  rupees: number | null;
  error: string | undefined;
  onChange: (rupees: number | null) => void;
}) {
  const [text, setText] = useState(rupees === null ? "" : String(rupees));
  return (
    <TextField
      label={label}
      value={text}
      onChange={(typed) => {
        setText(typed);
        onChange(rupeesOf(typed));
      }}
      error={error}
    />
  );
}
