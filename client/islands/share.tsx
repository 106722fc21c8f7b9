/** Island: the Share Job buttons and their dialogs on a job page. */
import { ShareButton, type ShareButtonProps } from "../components/share-dialog.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

hydrateIslands<ShareButtonProps>("share", (props) => <ShareButton {...props} />);
