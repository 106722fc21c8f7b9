/**
 * The Create Job and Edit Job screens: the input tabs, the duplicate-link check before a create,
 * saving, and drafts (saved as they are, published when complete). The form is
 * job-form-fields.tsx, the dialog duplicate-dialog.tsx and the JSON tab bulk-upload.tsx.
 */
import { useEffect, useId, useState } from "react";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { JobInput } from "../../../kv/schemas.ts";
import { DUPLICATE_TOAST_MS } from "../../../kv/constants.ts";
import { api, ApiError, messageOf } from "../api.ts";
import { can, useAdmin } from "../session.ts";
import { jobsChanged, queryKeys } from "../queries.ts";
import { AccessDenied, PageHeader, Tabs } from "../ui.tsx";
import type { DuplicateCheck, Job, JobAnswer } from "../types.ts";
import { emptyForm, formFromSaved, JobForm } from "./job-form-fields.tsx";
import { DuplicateDialog } from "./duplicate-dialog.tsx";
import { JsonUpload } from "./bulk-upload.tsx";
import { useListFrom } from "./job-list-state.ts";

function existingJobOf(error: unknown): Job | null {
  const existing = error instanceof ApiError ? error.body.existingJob : null;
  return existing && typeof existing === "object" ? existing as Job : null;
}

const INPUT_TABS = [
  { id: "form", label: "Form Input" },
  { id: "json", label: "JSON Upload" },
] as const;

export function CreateJobScreen() {
  const admin = useAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<(typeof INPUT_TABS)[number]["id"]>("form");
  const [busy, setBusy] = useState(false);
  const [duplicate, setDuplicate] = useState<Job | null>(null);
  const tabsId = useId();

  if (!can(admin, "canCreateJobs")) {
    return <AccessDenied reason="You don't have permission to create jobs" />;
  }

  const create = async (job: JobInput) => {
    setBusy(true);
    try {
      try {
        const check = await api.post<DuplicateCheck>("/jobs/check-duplicate", {
          hiringLink: job.hiringLink,
        });
        if (check.isDuplicate && check.existingJob) {
          setDuplicate(check.existingJob);
          return;
        }
      } catch (error) {
        // A failed check is logged and treated as no duplicate; the create decides.
        console.error("Duplicate check failed", error);
      }
      await api.post<JobAnswer>("/jobs", job);
      await jobsChanged(queryClient);
      toast.success("Job created successfully!");
      await navigate({ to: "/admin/jobs" });
    } catch (error) {
      const existing = existingJobOf(error);
      if (existing) setDuplicate(existing);
      else toast.error(messageOf(error, "Error creating job"));
    } finally {
      setBusy(false);
    }
  };

  const saveDraft = async (job: JobInput) => {
    setBusy(true);
    try {
      await api.post<JobAnswer>("/jobs", { ...job, status: "draft" });
      await jobsChanged(queryClient);
      toast.success("Draft saved: find it under Drafts");
      await navigate({ to: "/admin/jobs", search: { status: "draft", page: 1 } });
    } catch (error) {
      toast.error(messageOf(error, "Error saving draft"));
    } finally {
      setBusy(false);
    }
  };

  // Both input panels stay mounted, the other one hidden: a look at the JSON format guide keeps
  // what was typed into the form, and the reverse.
  return (
    <>
      <Link to="/admin/jobs" className="mb-4 inline-block text-sm font-medium text-indigo-700">
        ← Back to Jobs
      </Link>
      <PageHeader title="Create Job" subtitle="Post a new job listing" />
      <p
        role="note"
        className="mb-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      >
        Duplicate hiring links are not allowed: a job whose hiring link is already used by an active
        job is rejected.
      </p>
      <Tabs
        label="Input method"
        className="mb-6"
        tabs={INPUT_TABS}
        selected={tab}
        onSelect={setTab}
        tabId={(id) => `${tabsId}-${id}`}
        panelId={(id) => `${tabsId}-${id}-panel`}
      />
      <div
        role="tabpanel"
        id={`${tabsId}-form-panel`}
        aria-labelledby={`${tabsId}-form`}
        hidden={tab !== "form"}
      >
        <JobForm
          initial={emptyForm()}
          busy={busy}
          submitLabel="Create Job"
          busyLabel="Creating..."
          onSubmit={create}
          onCancel={() => navigate({ to: "/admin/jobs" })}
          draft={{ label: "Save as draft", busyLabel: "Saving...", onSave: saveDraft }}
        />
      </div>
      <div
        role="tabpanel"
        id={`${tabsId}-json-panel`}
        aria-labelledby={`${tabsId}-json`}
        hidden={tab !== "json"}
      >
        <JsonUpload />
      </div>
      <DuplicateDialog duplicate={duplicate} onClose={() => setDuplicate(null)} />
    </>
  );
}

export function EditJobScreen() {
  const admin = useAdmin();
  const { id } = useParams({ from: "/admin/jobs/edit/$id" });
  const navigate = useNavigate();
  const job = useQuery({
    queryKey: queryKeys.job(id),
    queryFn: () => api.get<Job>(`/jobs/${encodeURIComponent(id)}`),
    enabled: can(admin, "canCreateJobs"),
  });
  useEffect(() => {
    if (!job.error) return;
    toast.error("Error loading job details");
    void navigate({ to: "/admin/jobs" });
  }, [job.error]);

  if (!can(admin, "canCreateJobs")) {
    return <AccessDenied reason="You don't have permission to edit jobs" />;
  }
  if (!job.data) {
    return <p role="status" className="py-16 text-center text-slate-600">Loading job details...</p>;
  }
  return job.data.status === "draft"
    ? <EditDraft key={job.data._id} job={job.data} />
    : <EditPosted key={job.data._id} job={job.data} />;
}

function EditPosted({ job }: { job: Job }) {
  const navigate = useNavigate();
  const listFrom = useListFrom();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const save = async (body: JobInput) => {
    setBusy(true);
    try {
      await api.put<JobAnswer>(`/jobs/${job._id}`, body);
      await jobsChanged(queryClient);
      toast.success("Job updated successfully!");
      await navigate({ to: "/admin/jobs", search: listFrom });
    } catch (error) {
      const existing = existingJobOf(error);
      if (existing) {
        toast.error(
          `Duplicate hiring link! This link is already used by "${existing.role}" at ${existing.companyName}`,
          { duration: DUPLICATE_TOAST_MS },
        );
      } else toast.error(messageOf(error, "Error updating job"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Edit Job" subtitle={`${job.jobId} · ${job.companyName}`} />
      <JobForm
        initial={formFromSaved(job)}
        busy={busy}
        submitLabel="Update Job"
        busyLabel="Saving..."
        onSubmit={save}
        onCancel={() => navigate({ to: "/admin/jobs", search: listFrom })}
      />
    </>
  );
}

/**
 * A draft's editor: Save draft keeps it a draft (blanks allowed); Publish saves it complete and
 * makes it public, meeting the Duplicate Job Detected dialog when an active job holds its link.
 */
function EditDraft({ job }: { job: Job }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [duplicate, setDuplicate] = useState<Job | null>(null);

  const saveDraft = async (body: JobInput) => {
    setBusy(true);
    try {
      await api.put<JobAnswer>(`/jobs/${job._id}`, body);
      await jobsChanged(queryClient);
      toast.success("Draft saved");
      await navigate({ to: "/admin/jobs", search: { status: "draft", page: 1 } });
    } catch (error) {
      toast.error(messageOf(error, "Error saving draft"));
    } finally {
      setBusy(false);
    }
  };

  const publish = async (body: JobInput) => {
    setBusy(true);
    try {
      await api.put<JobAnswer>(`/jobs/${job._id}`, body);
      await api.put<JobAnswer>(`/jobs/${job._id}/status`, { status: "active" });
      await jobsChanged(queryClient);
      toast.success("Job published");
      await navigate({ to: "/admin/jobs" });
    } catch (error) {
      // The edit is kept as the draft whatever stopped the publishing.
      await jobsChanged(queryClient);
      const existing = existingJobOf(error);
      if (existing) setDuplicate(existing);
      else toast.error(messageOf(error, "Error publishing job"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Edit Draft"
        subtitle={`${job.jobId} · Not public until it is published`}
      />
      <JobForm
        initial={formFromSaved(job)}
        busy={busy}
        submitLabel="Publish"
        busyLabel="Publishing..."
        onSubmit={publish}
        onCancel={() => navigate({ to: "/admin/jobs", search: { status: "draft", page: 1 } })}
        draft={{ label: "Save draft", busyLabel: "Saving...", onSave: saveDraft }}
      />
      <DuplicateDialog duplicate={duplicate} onClose={() => setDuplicate(null)} />
    </>
  );
}
