/** Spinners: the page-wide one while the admin session resolves (the server shell renders it too). */
export function AuthSpinner() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center">
      <Wheel />
      <span className="sr-only">Loading...</span>
    </div>
  );
}

/** In the layout, while a screen's code is still on its way. */
export function ScreenSpinner() {
  return (
    <div role="status" className="flex justify-center py-24">
      <Wheel />
      <span className="sr-only">Loading...</span>
    </div>
  );
}

function Wheel() {
  return (
    <span className="size-10 animate-spin rounded-full border-4 border-slate-200 border-t-indigo-600" />
  );
}
