/**
 * Back to Jobs: the job list. Hydrated, it returns to the list the visitor came from, with their
 * search, filters and page, when they came from one (the referrer is sent in full within the site).
 */
import { useEffect, useState } from "react";

export function BackToJobs() {
  const [href, setHref] = useState("/jobs");
  useEffect(() => {
    if (!URL.canParse(document.referrer)) return;
    const from = new URL(document.referrer);
    if (from.origin === location.origin && from.pathname === "/jobs") {
      setHref(`/jobs${from.search}`);
    }
  }, []);
  return <a href={href} className="back-link">← Back to Jobs</a>;
}
