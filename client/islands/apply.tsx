/** Island: the Apply Now buttons of a job page. */
import { ApplyButton, type ApplyButtonProps } from "../components/apply-button.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

hydrateIslands<ApplyButtonProps>("apply", (props) => <ApplyButton {...props} />);
