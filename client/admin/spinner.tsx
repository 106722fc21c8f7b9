/** The spinner shown while the admin session resolves: rendered by the server shell and by the app. */
export function AuthSpinner() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center">
      <span className="size-10 animate-spin rounded-full border-4 border-slate-200 border-t-indigo-600" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}
