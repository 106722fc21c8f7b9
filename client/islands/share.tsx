/** Islands: the Share Job buttons and the share dialog they open on a job page. */
export { ShareButton, ShareDialog } from "../components/share-dialog.tsx";
