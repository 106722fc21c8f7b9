/**
 * The Analytics screen's insight lists (`InsightLists`), one tab each: where visits came from
 * (Sources), what seekers typed (Searches).
 */
import type { ReactElement } from "react";
import { CountTable, TopBars } from "../components/insight.tsx";
import { formatNumber } from "../ui.tsx";
import { adminSettings } from "../settings.ts";
import type { InsightList, InsightLists, SearchesReport, SourcesReport } from "../types.ts";

/** A tab's panel: the report of the period, absent while it is first read. */
export type InsightPanel<Report> = (
  props: { days: number; report: Report | undefined },
) => ReactElement;

const OTHER = "(other)";

export function SourcesPanel(
  { days, report }: { days: number; report: SourcesReport | undefined },
) {
  const sources = (report?.sources ?? []).map((row) => ({
    name: row.source,
    counts: [row.visits],
  }));
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
      <TopBars
        title="Top Sources"
        label={`Visits by source, last ${days} days`}
        series="Visits"
        colour="#4f46e5"
        rows={sources.filter((row) => row.name !== OTHER)}
      />
      <CountTable
        title="Traffic Sources"
        headings={["Source", "Visits"]}
        rows={sources}
        total={report?.visits}
      />
      <CountTable
        title="Campaign Sources (utm_source)"
        headings={["utm_source", "Visits"]}
        rows={(report?.utmSources ?? []).map((row) => ({ name: row.value, counts: [row.visits] }))}
        empty="No tagged links were followed in this period."
      />
      <CountTable
        title="Campaigns (utm_campaign)"
        headings={["utm_campaign", "Visits"]}
        rows={(report?.utmCampaigns ?? []).map((row) => ({
          name: row.value,
          counts: [row.visits],
        }))}
        empty="No tagged links were followed in this period."
      />
      <p className="text-sm text-slate-600 xl:col-span-2">
        Visits that entered the site, by the site they came from (moves within the site are not
        counted). Links shared from job pages carry utm_source, so shares opened in apps that send
        no referrer, such as WhatsApp, are still counted under their source.
      </p>
    </div>
  );
}

export function SearchesPanel(
  { days, report }: { days: number; report: SearchesReport | undefined },
) {
  const top = (report?.top ?? []).map((row) => ({
    name: row.query,
    counts: [row.searches, row.results],
  }));
  const zero = (report?.zeroResults ?? []).map((row) => ({
    name: row.query,
    counts: [row.searches],
  }));
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
      <TopBars
        title="Most Searched"
        label={`Searches by term, last ${days} days`}
        series="Searches"
        colour="#0d9488"
        rows={top}
      />
      <TopBars
        title="Searched, Nothing Found"
        label={`Searches that found no job, by term, last ${days} days`}
        series="Searches"
        colour="#dc2626"
        rows={zero}
      />
      <CountTable
        title="Search Terms"
        headings={["Search", "Searches", "Jobs Found"]}
        rows={top}
      />
      <CountTable
        title="Searches With No Results"
        headings={["Search", "Searches"]}
        rows={zero}
        empty="Every search in this period found jobs."
      />
      <p className="text-sm text-slate-600 xl:col-span-2">
        {report ? `${formatNumber(report.searches)} searches in all. ` : ""}
        Each term counts once per visitor a day, in lower case with spaces tidied; Jobs Found is
        what the term found on its own when last searched.
        {report && report.otherSearches > 0 &&
          ` ${formatNumber(report.otherSearches)} searches came after a day's first ${
            formatNumber(adminSettings().searchTermsPerDay)
          } different terms and are counted together only.`}
      </p>
    </div>
  );
}

/** Each insight list's panel, shown on the Analytics tab of the list's name. */
export const INSIGHT_PANELS: { [List in InsightList]: InsightPanel<InsightLists[List]> } = {
  sources: SourcesPanel,
  searches: SearchesPanel,
};

/** Whether a tab shows an insight list. */
export const isInsightList = (tab: string): tab is InsightList =>
  Object.hasOwn(INSIGHT_PANELS, tab);
