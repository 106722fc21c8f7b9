/** Island: the `/saved` page's lists. */
export { SavedList } from "../components/saved-list.tsx";
