/** What the admin forms share: the schema check with per-field messages, a text field, buttons. */
import type { output, ZodType } from "zod";

/**
 * Checks a form's values against its schema and shows the first message per top-level field (later
 * issues on the same field would only repeat it); the parsed values, or null when any field fails.
 */
export function validate<Schema extends ZodType, Field extends string>(
  schema: Schema,
  input: unknown,
  setErrors: (errors: Partial<Record<Field, string>>) => void,
): output<Schema> | null {
  const parsed = schema.safeParse(input);
  const found: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error?.issues ?? []) found[issue.path[0] as Field] ??= issue.message;
  setErrors(found);
  return parsed.success ? parsed.data : null;
}

/** A labelled input with its message; without `value` the browser keeps what is typed (`name`). */
export function TextField(
  { id, name, label, type, autoComplete, required, value, error, onChange }: {
    id: string;
    name?: string;
    label: string;
    type: string;
    autoComplete: string;
    required?: boolean;
    value?: string;
    error: string | undefined;
    onChange?: (value: string) => void;
  },
) {
  return (
    <div>
      <label htmlFor={id} className="field-label">{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        className="field"
        value={value}
        onChange={onChange && ((event) => onChange(event.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <p id={`${id}-error`} className="mt-1 text-sm text-red-700">{error}</p>}
    </div>
  );
}

export function FormButtons({ busy, label, busyLabel, onCancel }: {
  busy: boolean;
  label: string;
  busyLabel: string;
  onCancel: () => void;
}) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      <button type="button" className="btn-secondary" onClick={onCancel}>Cancel</button>
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
