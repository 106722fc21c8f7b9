/** Admin components rendered on their own in tests, inside the router some of them ask through. */
import type { ReactElement } from "react";
import {
  createMemoryHistory,
  createRootRoute,
  createRouter,
  RouterContextProvider,
} from "@tanstack/react-router";

/** `element` inside a bare router: the job form's unsaved-changes guard blocks through one. */
export const inRouter = (element: ReactElement) => (
  <RouterContextProvider
    router={createRouter({
      routeTree: createRootRoute(),
      history: createMemoryHistory({ initialEntries: ["/"] }),
    })}
  >
    {element}
  </RouterContextProvider>
);
