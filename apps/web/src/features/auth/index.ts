// auth's public surface: what another feature may import from it (biome.json refuses a reach past it). The
// account page's new sign-in reuses these; what it loads only when asked has files of its own beside this one
// (second-factor-form.ts, passkey-sign-in.ts), so importing this index does not bring them into its chunk.

export { useAppLinkCheck } from "./api/check-app-link.ts";
export { exchangeSession } from "./api/exchange-session.ts";
export { useLogout } from "./api/logout.ts";
export { login } from "./api/password-login.ts";
export { passkeysSupported } from "./api/use-passkey-sign-in.ts";
export { PasswordInput } from "./components/password-input.tsx";
export { linkTitle } from "./components/signing-in-to.tsx";
