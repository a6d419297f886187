// bankid's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { BankIdEntry } from "./components/bankid-entry.tsx";
