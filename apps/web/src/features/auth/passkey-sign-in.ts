// Part of auth's public surface, loaded lazily by the account page's new sign-in with a passkey: a file of its own,
// so the WebAuthn ceremony stays out of the chunk that imports auth's index.
export { passkeySignIn } from "./api/passkey-ceremony.ts";
