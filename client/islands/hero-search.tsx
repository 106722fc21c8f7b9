/** Island: the home page's search form and its quick chips. */
import { HeroSearch } from "../components/search-forms.tsx";
import { hydrateIslands } from "../components/hydrate.tsx";

hydrateIslands<Record<string, never>>("hero-search", () => <HeroSearch />);
