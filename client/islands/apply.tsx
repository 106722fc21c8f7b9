/** Island: the Apply Now buttons of a job page, and its Back to Jobs link. */
import { ApplyButton, type ApplyButtonProps } from "../components/apply-button.tsx";
import { BackToJobs } from "../components/back-link.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

hydrateIslands<ApplyButtonProps>("apply", (props) => <ApplyButton {...props} />);
hydrateIslands<Record<string, never>>("back", () => <BackToJobs />);
