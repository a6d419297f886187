// console-reviews's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { useSuspension } from "./api/reviews-api.ts";
