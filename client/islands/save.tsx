/** Islands: Save Job on a job page, and the header's Saved link with its count. */
export { SaveButton, SavedLink } from "../components/save-button.tsx";
