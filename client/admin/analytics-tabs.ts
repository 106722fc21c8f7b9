import { INSIGHT_LIST_NAMES, INSIGHT_LISTS } from "../../kv/analytics/insight-lists.ts";

/**
 * The Analytics screen's tabs: the router reads the one its address names, the screen shows them.
 * After the tabs of the daily totals, one per insight list, as `INSIGHT_LISTS` labels it.
 */
export const ANALYTICS_TABS = [
  { id: "overview", label: "Overview" },
  { id: "jobs", label: "Job Performance" },
  { id: "companies", label: "Company Stats" },
  { id: "devices", label: "Device & Browser" },
  ...INSIGHT_LIST_NAMES.map((id) => ({ id, label: INSIGHT_LISTS[id] })),
] as const;

export type AnalyticsTab = (typeof ANALYTICS_TABS)[number]["id"];

export const ANALYTICS_TAB_IDS = ANALYTICS_TABS.map((tab) => tab.id) as [
  AnalyticsTab,
  ...AnalyticsTab[],
];
