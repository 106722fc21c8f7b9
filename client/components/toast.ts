/**
 * The public site's toasts (SPEC section 8): top right, 4 seconds. A few lines of DOM code instead
 * of a toast library keep every public page's JavaScript small. Messages go into the live region the
 * server rendered (`Toasts`), which screen readers are already watching when a message arrives.
 */
import { TOAST_MS } from "../../kv/constants.ts";

export const TOAST_REGION_ID = "toasts";

export type ToastKind = "success" | "error";

export function toast(message: string, kind: ToastKind = "success", durationMs = TOAST_MS) {
  const region = document.getElementById(TOAST_REGION_ID);
  if (!region) return;
  const item = document.createElement("div");
  item.className = `toast toast-${kind}`;
  item.textContent = message;
  region.append(item);
  setTimeout(() => item.remove(), durationMs);
}
