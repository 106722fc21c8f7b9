/**
 * "Get new jobs like these by e-mail": the job list's search as an alert. Without JavaScript the
 * form posts to `/alerts`, which answers with a page; awake, it calls `POST /api/alerts` and says
 * the answer in place.
 */
import { type FormEvent, useState } from "react";
import { HTTP_TIMEOUT_MS, MAX_EMAIL_LENGTH } from "../../kv/constants.ts";

export interface AlertFormProps {
  /** The list's search: keywords, location and filters, by their query parameter. */
  search: Record<string, string>;
  /** The search in words. */
  description: string;
}

type Outcome = { kind: "done" | "error"; message: string } | null;

async function submit(form: HTMLFormElement): Promise<Outcome> {
  const body = Object.fromEntries(new FormData(form));
  try {
    const response = await fetch("/api/alerts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const { message } = await response.json() as { message?: string };
    return {
      kind: response.ok ? "done" : "error",
      message: message ?? "The alert could not be created. Please try again.",
    };
  } catch {
    return { kind: "error", message: "The alert could not be created. Please try again." };
  }
}

export function AlertForm({ search, description }: AlertFormProps) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const form = event.currentTarget;
    const result = await submit(form);
    setOutcome(result);
    if (result?.kind === "done") form.reset();
    setBusy(false);
  }

  return (
    <section className="panel alert-panel" aria-labelledby="alert-title">
      <h2 id="alert-title" className="panel-title">Get new jobs like these by e-mail</h2>
      <p className="muted small">{`${description}. New matches only, no account needed.`}</p>
      <form method="post" action="/alerts" className="alert-form" onSubmit={send}>
        {Object.entries(search).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label className="field grow">
          <span className="field-label">E-mail address</span>
          <input
            className="input"
            type="email"
            name="email"
            required
            maxLength={MAX_EMAIL_LENGTH}
            autoComplete="email"
            placeholder="you@example.com"
          />
        </label>
        <label className="field">
          <span className="field-label">How often</span>
          <select className="input" name="frequency" defaultValue="daily">
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </label>
        <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
          Create Alert
        </button>
      </form>
      <p
        role="status"
        className={outcome?.kind === "error" ? "alert-error" : "alert-done"}
      >
        {outcome?.message}
      </p>
    </section>
  );
}
