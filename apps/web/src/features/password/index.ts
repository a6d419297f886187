// password's public surface: what another feature may import from it (biome.json refuses a reach past it).

export { changePassword } from "./api/password-api.ts";
export { NewPasswordField } from "./components/new-password-field.tsx";
export { contextWordsOf } from "./strength/estimate.ts";
