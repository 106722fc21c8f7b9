/** The admin portal's entry: takes over the server shell's root with the routed, query-fed app. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { Toaster } from "sonner";
import { TOAST_MS } from "../../kv/constants.ts";
import { setUnauthorizedHandler, tokenStore } from "./api.ts";
import { router } from "./router.tsx";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 15_000 },
  },
});

setUnauthorizedHandler(() => {
  tokenStore.set(null);
  queryClient.clear();
  if (router.state.location.pathname !== "/admin/login") {
    void router.navigate({ to: "/admin/login", replace: true });
  }
});

createRoot(document.getElementById("admin-root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster position="top-right" duration={TOAST_MS} richColors closeButton />
    </QueryClientProvider>
  </StrictMode>,
);
