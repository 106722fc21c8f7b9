/**
 * Guards typed work: while a form holds changes not yet saved, leaving it inside the portal (a
 * link, Cancel, Back) asks first, and leaving the page (closing the tab, reloading) has the
 * browser ask.
 */
import { useRef } from "react";
import { useBlocker } from "@tanstack/react-router";
import { ConfirmDialog } from "../ui.tsx";

export function UnsavedChangesGuard({ unsaved }: { unsaved: boolean }) {
  // Read when a navigation starts, so the answer is always the form's current state.
  const holding = useRef(unsaved);
  holding.current = unsaved;
  const blocker = useBlocker({
    // A session that ended goes to the sign-in page whatever the form holds.
    shouldBlockFn: ({ next }) => holding.current && next.pathname !== "/admin/login",
    enableBeforeUnload: () => holding.current,
    withResolver: true,
  });
  return (
    <ConfirmDialog
      open={blocker.status === "blocked"}
      title="Leave without saving?"
      message="The changes you made on this page will be lost."
      confirmLabel="Leave"
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
