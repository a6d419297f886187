// diia's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { DiiaLogin } from "./components/diia-login.tsx";
