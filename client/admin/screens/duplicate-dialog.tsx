/**
 * The Duplicate Job Detected dialog of Create Job: the active job that already uses the hiring
 * link, with the way to it.
 */
import { useNavigate } from "@tanstack/react-router";
import { Dialog, formatDate } from "../ui.tsx";
import type { Job } from "../types.ts";

export function DuplicateDialog({ duplicate, onClose }: {
  duplicate: Job | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  return (
    <Dialog
      open={duplicate !== null}
      onClose={onClose}
      title="Duplicate Job Detected"
    >
      {duplicate && (
        <>
          <p className="text-sm text-slate-600">
            An active job already uses this hiring link:
          </p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-4 text-sm">
            <dt className="text-slate-600">Role</dt>
            <dd className="font-medium">{duplicate.role}</dd>
            <dt className="text-slate-600">Company</dt>
            <dd className="font-medium">{duplicate.companyName}</dd>
            <dt className="text-slate-600">Location</dt>
            <dd className="font-medium">{duplicate.location}</dd>
            <dt className="text-slate-600">Posted</dt>
            <dd className="font-medium">{formatDate(duplicate.datePosted)}</dd>
          </dl>
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className="btn-secondary" onClick={onClose}>
              Close
            </button>
            <button
              type="button"
              className="btn-primary"
              onClick={() =>
                navigate({ to: "/admin/jobs/edit/$id", params: { id: duplicate._id } })}
            >
              View/Edit Existing Job
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
