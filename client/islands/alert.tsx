/** Island: the job list's "Get new jobs like these by e-mail" form. */
export { AlertForm } from "../components/alert-form.tsx";
