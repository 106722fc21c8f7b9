/** Island: the Share Job buttons and the share dialog they open on a job page. */
import {
  ShareButton,
  type ShareButtonProps,
  ShareDialog,
  type ShareDialogProps,
} from "../components/share-dialog.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

hydrateIslands<ShareDialogProps>("share-dialog", (props) => <ShareDialog {...props} />);
hydrateIslands<ShareButtonProps>("share", (props) => <ShareButton {...props} />);
