/**
 * Back to Jobs: the job list. Hydrated, it returns to the list the visitor came from, with their
 * search, filters and page, when they came from one (the referrer is sent in full within the site):
 * as the browser's Back does, so the list is where they left it, scrolled to the card they opened.
 */
import { type MouseEvent, useEffect, useState } from "react";

export function BackToJobs() {
  const [href, setHref] = useState("/jobs");
  const [fromList, setFromList] = useState(false);
  useEffect(() => {
    if (!URL.canParse(document.referrer)) return;
    const from = new URL(document.referrer);
    if (from.origin === location.origin && from.pathname === "/jobs") {
      setHref(`/jobs${from.search}`);
      setFromList(true);
    }
  }, []);
  const back = (event: MouseEvent<HTMLAnchorElement>) => {
    // A page opened in a tab of its own has no list behind it: the link then loads the list.
    if (!fromList || history.length < 2 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    history.back();
  };
  return <a href={href} className="back-link" onClick={back}>← Back to Jobs</a>;
}
