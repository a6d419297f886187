// institution's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { InstitutionEntry } from "./components/institution-entry.tsx";
export { InstitutionSearch } from "./components/institution-search.tsx";
