/** Islands: the Apply Now buttons of a job page, and its Back to Jobs link. */
export { ApplyButton } from "../components/apply-button.tsx";
export { BackToJobs } from "../components/back-link.tsx";
