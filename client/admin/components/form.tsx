/**
 * The admin forms' kit: the schema check with per-field messages, the labelled controls with their
 * messages (marked invalid and tied to the message for screen readers), focus on the first invalid
 * field, and the form buttons.
 */
import { type ReactNode, type RefObject, useEffect, useId } from "react";
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

/** After each refused submit (`attempts` counts them), focus goes to the first field marked invalid. */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, attempts: number) {
  useEffect(() => {
    if (attempts) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);
}

/** The attributes that mark a control invalid and point it at its message. */
function invalid(id: string, error: string | undefined) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  } as const;
}

/** A field's message under it, tied to the control by aria-describedby. */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? <p id={`${id}-error`} className="mt-1 text-sm text-red-700">{error}</p> : null;
}

/**
 * The label, with a star (read as nothing) where a value is needed and the form says so; `inline`,
 * the quieter label written beside its control.
 */
function FieldLabel(
  { id, label, mark, inline }: { id: string; label: string; mark?: boolean; inline?: boolean },
) {
  return (
    <label htmlFor={id} className={inline ? "text-sm text-slate-600" : "field-label"}>
      {label}
      {mark && (
        <>
          {" "}
          <span className="text-red-700" aria-hidden="true">*</span>
        </>
      )}
    </label>
  );
}

interface FieldProps {
  /** The control's id; one is made up when left out. */
  id?: string;
  label: string;
  error: string | undefined;
  /** Shows the star after the label. */
  requiredMark?: boolean;
  required?: boolean;
  value?: string;
  onChange?: (value: string) => void;
}

/** A labelled input with its message; without `value` the browser keeps what is typed (`name`). */
export function TextField(
  {
    id: given,
    name,
    label,
    type = "text",
    autoComplete,
    placeholder,
    requiredMark,
    required,
    value,
    error,
    onChange,
    help,
    min,
    max,
  }: FieldProps & {
    name?: string;
    type?: string;
    autoComplete?: string;
    placeholder?: string;
    /** A line under the control saying what the field is for. */
    help?: string;
    min?: string;
    max?: string;
  },
) {
  const made = useId();
  const id = given ?? made;
  const described = [help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div>
      <FieldLabel id={id} label={label} mark={requiredMark} />
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        className="field"
        value={value}
        placeholder={placeholder}
        min={min}
        max={max}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...invalid(id, error)}
        aria-describedby={described || undefined}
      />
      {help && <p id={`${id}-help`} className="mt-1 text-sm text-slate-600">{help}</p>}
      <FieldError id={id} error={error} />
    </div>
  );
}

export function TextArea(
  { id: given, label, requiredMark, required, value, error, onChange, rows }: FieldProps & {
    rows: number;
  },
) {
  const made = useId();
  const id = given ?? made;
  return (
    <div>
      <FieldLabel id={id} label={label} mark={requiredMark} />
      <textarea
        id={id}
        rows={rows}
        required={required}
        className="field"
        value={value}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...invalid(id, error)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A dropdown of `options`; `placeholder` is the empty first option while none is chosen. */
export function SelectField(
  {
    id: given,
    label,
    requiredMark,
    required,
    value,
    error,
    onChange,
    options,
    placeholder,
    inline,
  }:
    & FieldProps
    & {
      /** Each option as its value, or as a value and the label shown for it. */
      options: readonly (string | readonly [value: string, label: string])[];
      placeholder?: string;
      /** The label beside the dropdown, which is as wide as its options: a choice in a toolbar. */
      inline?: boolean;
    },
) {
  const made = useId();
  const id = given ?? made;
  return (
    <div className={inline ? "flex items-center gap-2" : undefined}>
      <FieldLabel id={id} label={label} mark={requiredMark} inline={inline} />
      <select
        id={id}
        required={required}
        className={inline ? "field w-auto" : "field"}
        value={value}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...invalid(id, error)}
      >
        {placeholder && <option value="">{placeholder}</option>}
        {options.map((option) => {
          const [value, label] = typeof option === "string" ? [option, option] : option;
          return <option key={value} value={value}>{label}</option>;
        })}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

export function FormButtons({ busy, label, busyLabel, onCancel, held = false, children }: {
  busy: boolean;
  label: string;
  busyLabel: string;
  onCancel: () => void;
  /** Another button's action is on its way: the submit button waits for it. */
  held?: boolean;
  /** Further buttons, between Cancel and the submit button. */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap justify-end gap-3 pt-2">
      <button type="button" className="btn-secondary" onClick={onCancel}>Cancel</button>
      {children}
      <button type="submit" className="btn-primary" disabled={busy || held}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
