// console-people's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { personColumns } from "./components/person-columns.tsx";
export { WifiFiguresSection } from "./components/person-wifi.tsx";
