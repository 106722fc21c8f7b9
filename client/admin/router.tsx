/**
 * The admin route tree, code-based and typed, with zod-validated search
 * params. Screens load lazily, so the first screen fetches only its own code; the loaders of the
 * dashboard, the dump and Manage Admins start the screen's reads (`queryOptions` in queries.ts)
 * alongside that code, without holding the screen back for them.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Navigate,
  Outlet,
  redirect,
  stripSearchParams,
} from "@tanstack/react-router";
import * as z from "zod";
import { ANALYTICS_PERIODS, DEFAULT_ANALYTICS_PERIOD } from "../../kv/constants.ts";
import { JOB_STATUSES } from "../../kv/schemas.ts";
import { AdminLayout } from "./layout.tsx";
import { tokenStore } from "./api.ts";
import { ANALYTICS_TAB_IDS } from "./analytics-tabs.ts";
import { preloadCharts } from "./lazy-charts.tsx";
import {
  adminsQuery,
  dashboardQuery,
  dumpListQuery,
  type JobListSearch,
  knownAdmin,
  queryClient,
  recentJobsQuery,
} from "./queries.ts";
import { LoginScreen } from "./screens/login.tsx";
import { ScreenSpinner } from "./spinner.tsx";

// Each param has a default, so links may leave it out (and stripSearchParams keeps it out of the
// address bar), and a catch, so a hand-edited URL still opens the screen.
const days = z.coerce.number().refine((value) =>
  (ANALYTICS_PERIODS as readonly number[]).includes(value)
).default(DEFAULT_ANALYTICS_PERIOD).catch(DEFAULT_ANALYTICS_PERIOD);
const page = z.coerce.number().int().min(1).default(1).catch(1);
const filterText = z.string().max(200).optional().catch(undefined);

const periodSearch = z.object({ days });

const jobsSearch = z.object({
  status: z.enum(["all", ...JOB_STATUSES]).default("active").catch("active"),
  page,
  search: filterText,
  company: filterText,
  location: filterText,
});
const dumpSearch = z.object({ page });
const analyticsSearch = z.object({
  days,
  tab: z.enum(ANALYTICS_TAB_IDS).default(
    "overview",
  ).catch(
    "overview",
  ),
});

/** A screen with charts starts the chart code loading beside its data, for a signed-in admin. */
const chartsForSession = () => {
  if (tokenStore.get()) preloadCharts();
};

const toDashboard = () => {
  throw redirect({ to: "/admin/dashboard", replace: true });
};

const rootRoute = createRootRoute({
  component: Outlet,
  // Only /admin paths reach the shell, and the splat route below takes unknown ones; this is the
  // last resort for anything else the router cannot match.
  notFoundComponent: () => <Navigate to="/admin/dashboard" replace />,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin/login",
  component: LoginScreen,
});

const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  component: AdminLayout,
});

const adminIndexRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/",
  beforeLoad: toDashboard,
});

const unknownAdminRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "$",
  beforeLoad: toDashboard,
});

const dashboardRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "dashboard",
  validateSearch: periodSearch,
  search: { middlewares: [stripSearchParams({ days: DEFAULT_ANALYTICS_PERIOD })] },
  loaderDeps: ({ search }) => ({ days: search.days }),
  // Every admin may read both, so with a session stored they start beside the profile call
  // rather than after it: on a full load the dashboard's data no longer waits a round trip.
  loader: ({ deps }) => {
    if (!tokenStore.get()) return;
    preloadCharts();
    void queryClient.prefetchQuery(dashboardQuery(deps.days));
    void queryClient.prefetchQuery(recentJobsQuery());
  },
  component: lazyRouteComponent(() => import("./screens/dashboard.tsx"), "DashboardScreen"),
});

const jobsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "jobs",
  validateSearch: jobsSearch,
  search: { middlewares: [stripSearchParams({ status: "active", page: 1 })] },
  component: lazyRouteComponent(() => import("./screens/jobs.tsx"), "JobsScreen"),
});

const createJobRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "jobs/create",
  component: lazyRouteComponent(() => import("./screens/job-form.tsx"), "CreateJobScreen"),
});

const editJobRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "jobs/edit/$id",
  component: lazyRouteComponent(() => import("./screens/job-form.tsx"), "EditJobScreen"),
});

const jobInsightRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "jobs/insight/$id",
  validateSearch: periodSearch,
  search: { middlewares: [stripSearchParams({ days: DEFAULT_ANALYTICS_PERIOD })] },
  loader: chartsForSession,
  component: lazyRouteComponent(() => import("./screens/job-insight.tsx"), "JobInsightScreen"),
});

const dumpRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "jobs/dump",
  validateSearch: dumpSearch,
  search: { middlewares: [stripSearchParams({ page: 1 })] },
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ deps }) => {
    if (knownAdmin()) void queryClient.prefetchQuery(dumpListQuery(deps.page));
  },
  component: lazyRouteComponent(() => import("./screens/dump.tsx"), "DumpScreen"),
});

const adminsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "admins",
  loader: () => {
    if (knownAdmin()?.role === "main_admin") void queryClient.prefetchQuery(adminsQuery());
  },
  component: lazyRouteComponent(() => import("./screens/admins.tsx"), "AdminsScreen"),
});

const activityRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "activity",
  component: lazyRouteComponent(() => import("./screens/activity.tsx"), "ActivityScreen"),
});

const analyticsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "analytics",
  validateSearch: analyticsSearch,
  search: { middlewares: [stripSearchParams({ days: DEFAULT_ANALYTICS_PERIOD, tab: "overview" })] },
  loader: chartsForSession,
  component: lazyRouteComponent(() => import("./screens/analytics.tsx"), "AnalyticsScreen"),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  adminRoute.addChildren([
    adminIndexRoute,
    dashboardRoute,
    jobsRoute,
    createJobRoute,
    editJobRoute,
    jobInsightRoute,
    dumpRoute,
    adminsRoute,
    activityRoute,
    analyticsRoute,
    unknownAdminRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  defaultPreload: "intent",
  defaultPendingComponent: ScreenSpinner,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
  interface HistoryState {
    /** The Manage Jobs view a job's editor or insight was opened from (useListFrom). */
    jobList?: JobListSearch;
  }
}
