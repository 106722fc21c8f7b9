/** The admin portal's entry: hydrates the server shell, then hands it to the routed, query-fed app. */
import { StrictMode, useEffect, useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { setForbiddenHandler, setUnauthorizedHandler, tokenStore } from "./api.ts";
import { profileKey } from "./session.ts";
import { queryClient } from "./queries.ts";
import { router } from "./router.tsx";
import { AuthSpinner } from "./spinner.tsx";
import { AdminToaster } from "./toaster.tsx";
import { useToastTop } from "./ui.tsx";

setUnauthorizedHandler(() => {
  tokenStore.set(null);
  queryClient.clear();
  if (router.state.location.pathname !== "/admin/login") {
    void router.navigate({ to: "/admin/login", replace: true });
  }
});

setForbiddenHandler(() => void queryClient.invalidateQueries({ queryKey: profileKey }));

// A session that ends, here or in another tab, takes its cached answers with it, so the next
// account never sees the last one's lists.
let lastToken = tokenStore.get();
tokenStore.subscribe(() => {
  const token = tokenStore.get();
  if (lastToken !== null && token !== lastToken) queryClient.clear();
  lastToken = token;
});

function App() {
  // The first render is the shell's own markup (the spinner), so hydration matches what the server
  // sent; the router renders from the next one on.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const toastTop = useToastTop();
  if (!hydrated) return <AuthSpinner />;
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <AdminToaster top={toastTop} />
    </QueryClientProvider>
  );
}

hydrateRoot(
  document.getElementById("admin-root")!,
  <StrictMode>
    <App />
  </StrictMode>,
);
