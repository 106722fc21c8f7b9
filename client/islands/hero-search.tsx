/** Island: the home page's search form and its quick chips. */
export { HeroSearch } from "../components/search-forms.tsx";
