/**
 * Apply Now. Without JavaScript it is a link to /jobs/{id}/apply, which
 * records the click and redirects to the company's page in a new tab. Hydrated, it disables itself
 * with a spinner, records the click through the API, and only then opens the hiring link.
 */
import { type MouseEvent, useState } from "react";
import { HTTP_TIMEOUT_MS } from "../../kv/constants.ts";
import { toast } from "./toast.tsx";

export interface ApplyButtonProps {
  /** The job's `_id`, for the click API. */
  jobKey: string;
  /** The no-script route that records the click and redirects. */
  href: string;
  className: string;
}

async function recordClick(jobKey: string): Promise<string> {
  const response = await fetch(`/api/jobs/${encodeURIComponent(jobKey)}/click`, {
    method: "POST",
    signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`click not recorded: ${response.status}`);
  const { hiringLink } = await response.json() as { hiringLink?: unknown };
  if (typeof hiringLink !== "string" || !/^https?:\/\//i.test(hiringLink)) {
    throw new Error("no usable hiring link");
  }
  return hiringLink;
}

export function ApplyButton({ jobKey, href, className }: ApplyButtonProps) {
  const [busy, setBusy] = useState(false);

  async function apply(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const hiringLink = await recordClick(jobKey);
      toast("Redirecting to application...");
      globalThis.open(hiringLink, "_blank", "noopener,noreferrer");
    } catch {
      toast("Failed to track application", "error");
    } finally {
      setBusy(false);
    }
  }

  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={busy ? className : `${className} ico ico-external`}
      onClick={apply}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      Apply Now
    </a>
  );
}
