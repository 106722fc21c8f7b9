/** The Analytics screen's tabs: the router reads the one its address names, the screen shows them. */
export const ANALYTICS_TABS = [
  { id: "overview", label: "Overview" },
  { id: "jobs", label: "Job Performance" },
  { id: "companies", label: "Company Stats" },
  { id: "devices", label: "Device & Browser" },
  { id: "sources", label: "Sources" },
  { id: "searches", label: "Searches" },
] as const;

export type AnalyticsTab = (typeof ANALYTICS_TABS)[number]["id"];

export const ANALYTICS_TAB_IDS = ANALYTICS_TABS.map((tab) => tab.id) as [
  AnalyticsTab,
  ...AnalyticsTab[],
];
