/**
 * The public site's toasts: top right, 4 seconds. A few lines of DOM code instead of a toast
 * library keep every public page's JavaScript small. Messages go into a live region rendered
 * before they arrive, which screen readers are already watching: the page's, or, while a modal
 * dialog is open, the dialog's own (`ToastRegion`). The rest of the page is then inert and under
 * the dialog's backdrop, so a message there would be neither seen nor announced.
 */
import { TOAST_MS } from "../../kv/constants.ts";

export const TOAST_REGION_ID = "toasts";
const REGION_CLASS = "toasts";

/** A live region for toasts; a modal dialog renders one of its own. */
export function ToastRegion({ id }: { id?: string }) {
  return <div id={id} className={REGION_CLASS} role="status" aria-live="polite" />;
}

export type ToastKind = "success" | "error";

export function toast(message: string, kind: ToastKind = "success", durationMs = TOAST_MS) {
  const region = document.querySelector(`dialog[open] .${REGION_CLASS}`) ??
    document.getElementById(TOAST_REGION_ID);
  if (!region) return;
  const item = document.createElement("div");
  item.className = `toast toast-${kind}`;
  item.textContent = message;
  region.append(item);
  setTimeout(() => item.remove(), durationMs);
}
