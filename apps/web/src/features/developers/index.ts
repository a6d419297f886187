// developers's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { DevelopersLink } from "./components/developers-link.tsx";
