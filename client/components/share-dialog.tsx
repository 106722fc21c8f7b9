/**
 * Share Job: a modal dialog with the share text, copy to clipboard, share links and
 * the device's own share sheet where it has one. `<dialog>` with showModal() keeps focus inside,
 * closes on Escape and hands focus back to the button that opened it. The page has one dialog and
 * several buttons (separate islands of the same bundle, so they share this module).
 */
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { COPIED_INDICATOR_MS } from "../../kv/constants.ts";
import { type ShareJob, shareTargets, shareText } from "./share.ts";
import { toast, ToastRegion } from "./toast.tsx";

export interface ShareButtonProps {
  /** The id of the page's one share dialog. */
  dialogId: string;
  className: string;
}

export interface ShareDialogProps {
  job: ShareJob;
  dialogId: string;
}

/** The Share Job button that opened the dialog: focus goes back to it when the dialog closes. */
let opener: HTMLElement | null = null;

/** A Share Job button; a page has several, all opening the same dialog. */
export function ShareButton({ dialogId, className }: ShareButtonProps) {
  return (
    <button
      type="button"
      className={`${className} js-only ico ico-share`}
      aria-haspopup="dialog"
      aria-controls={dialogId}
      onClick={(event) => {
        opener = event.currentTarget;
        (document.getElementById(dialogId) as HTMLDialogElement | null)?.showModal();
      }}
    >
      Share Job
    </button>
  );
}

export function ShareDialog({ job, dialogId }: ShareDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [copied, setCopied] = useState(false);
  const [canShare, setCanShare] = useState(false);
  const text = shareText(job);
  const titleId = `${dialogId}-title`;
  const previewId = `${dialogId}-preview`;

  // Known only in the browser; the server renders without it so hydration matches.
  useEffect(() => setCanShare(typeof navigator.share === "function"), []);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast("Job post copied to clipboard!");
    } catch {
      toast("Failed to copy to clipboard", "error");
    }
  }

  function closeOnBackdrop(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === dialog.current) dialog.current.close();
  }

  return (
    <dialog
      ref={dialog}
      id={dialogId}
      className="share-dialog"
      aria-labelledby={titleId}
      onClick={closeOnBackdrop}
      onClose={() => opener?.focus()}
    >
      <div className="dialog-head">
        <h2 id={titleId} className="dialog-title">Share this job</h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Close"
          onClick={() => dialog.current?.close()}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p id={previewId} className="muted small">Preview</p>
      {/* Scrolls when long: focusable, so a keyboard can scroll it, and named by its caption. */}
      <div className="share-preview" role="region" aria-labelledby={previewId} tabIndex={0}>
        <pre>{text}</pre>
      </div>
      <button type="button" className="btn btn-primary btn-block" onClick={copy}>
        {copied ? "Copied!" : "Copy to Clipboard"}
      </button>
      <ul className="share-links" aria-label="Share on">
        {shareTargets(job).map((target) => (
          <li key={target.name}>
            <a
              className="btn btn-secondary btn-block"
              href={target.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              {target.name}
            </a>
          </li>
        ))}
      </ul>
      {canShare && (
        <button
          type="button"
          className="btn btn-secondary btn-block"
          onClick={() =>
            navigator.share({ title: `${job.role} at ${job.companyName}`, text }).catch(() => {})}
        >
          More sharing options
        </button>
      )}
      <ToastRegion />
    </dialog>
  );
}
