/**
 * The portal's toasts, shared by the sign-in page and the signed-in app, and a toast that waits for
 * the next page: signing in leaves the light sign-in page for the app, and its "Login successful!"
 * shows where the admin arrives.
 */
import { type CSSProperties, useEffect } from "react";
import { toast, Toaster } from "sonner";
import { TOAST_MS } from "../../kv/constants.ts";

/** Sonner's rich colours, darkened so toast text keeps a contrast of at least 4.5:1. */
const TOAST_COLOURS = {
  "--success-text": "#166534",
  "--error-text": "#b91c1c",
  "--info-text": "#1d4ed8",
  "--warning-text": "#92400e",
} as CSSProperties;

/** Where toasts start when no screen header is shown (the sign-in page). */
export const TOAST_TOP_PX = 16;

const NEXT_PAGE_KEY = "careeredge.nextPageToast";

/** Shows `message` as a success toast on the next page this tab opens. */
export function successOnNextPage(message: string) {
  try {
    sessionStorage.setItem(NEXT_PAGE_KEY, message);
  } catch {
    // Storage refused (a private mode): the admin arrives signed in, only without the toast.
  }
}

function takeNextPageToast(): string | null {
  try {
    const message = sessionStorage.getItem(NEXT_PAGE_KEY);
    sessionStorage.removeItem(NEXT_PAGE_KEY);
    return message;
  } catch {
    return null;
  }
}

/** Toasts top right, starting `top` pixels down (below the screen header's buttons). */
export function AdminToaster({ top = TOAST_TOP_PX }: { top?: number }) {
  // Runs after the Toaster below has subscribed, so the waiting toast is not lost.
  useEffect(() => {
    const message = takeNextPageToast();
    if (message) toast.success(message);
  }, []);
  return (
    <Toaster
      position="top-right"
      duration={TOAST_MS}
      richColors
      closeButton
      style={TOAST_COLOURS}
      offset={{ top }}
      mobileOffset={{ top }}
    />
  );
}
