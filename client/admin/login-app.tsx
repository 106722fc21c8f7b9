/** The sign-in form made interactive, loaded by the sign-in page's entry when first needed. */
import { type ReactNode, StrictMode, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { tokenStore } from "./api.ts";
import { LoginPage, type SignedIn } from "./login-form.tsx";
import { AdminToaster, successOnNextPage } from "./toaster.tsx";

function signedIn(answer: SignedIn): Promise<void> {
  tokenStore.set(answer.token);
  successOnNextPage("Login successful!");
  location.assign("/admin/dashboard");
  // The page is being left: the button stays busy until it is gone.
  return new Promise(() => {});
}

/** Runs `done` once its children are hydrated: from then on React handles the form's events. */
function Hydrated({ done, children }: { done: () => void; children: ReactNode }) {
  useEffect(done, [done]);
  return children;
}

/** Hydrates the server's form; resolves once it is interactive. */
export function hydrateLoginPage(): Promise<void> {
  const toasts = document.body.appendChild(document.createElement("div"));
  createRoot(toasts).render(<AdminToaster />);
  return new Promise((done) => {
    hydrateRoot(
      document.getElementById("admin-root")!,
      <StrictMode>
        <Hydrated done={done}>
          <LoginPage onSignedIn={signedIn} />
        </Hydrated>
      </StrictMode>,
    );
  });
}
