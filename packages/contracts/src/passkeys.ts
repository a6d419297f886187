import { z } from "zod";
import { text } from "./text.ts";

/** The name a person gives a passkey ("Work laptop"), shown in their list. */
export const passkeyNameSchema = text().trim().min(1).max(64);

/** WebAuthn transports (WebAuthn Level 3 and the `cable`/`smart-card` values browsers send). */
export const passkeyTransports = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] as const;
export type PasskeyTransport = (typeof passkeyTransports)[number];

// Base64url fields of a browser's answer; generous bounds (an attestation object holds a public key).
const base64url = (max: number) =>
  text()
    .regex(/^[A-Za-z0-9_-]*$/)
    .max(max);

/**
 * The browser's `PublicKeyCredential` for `navigator.credentials.create()`, as
 * `@simplewebauthn/browser`'s `startRegistration` answers it (RegistrationResponseJSON).
 */
export const passkeyRegistrationResponseSchema = z.object({
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    transports: z.array(z.enum(passkeyTransports)).max(8).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

/** The browser's `PublicKeyCredential` for `navigator.credentials.get()` (AuthenticationResponseJSON). */
export const passkeyAuthenticationResponseSchema = z.object({
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(4096),
    userHandle: base64url(1024).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

/** Adding a passkey: the person's name for it and the browser's answer to the registration options. */
export const passkeyRegistrationRequestSchema = z.object({
  name: passkeyNameSchema,
  response: passkeyRegistrationResponseSchema,
});
export type PasskeyRegistrationRequest = z.infer<typeof passkeyRegistrationRequestSchema>;

export const passkeySignInRequestSchema = z.object({ response: passkeyAuthenticationResponseSchema });
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequestSchema>;

/**
 * WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or
 * PublicKeyCredentialRequestOptionsJSON), handed to `@simplewebauthn/browser` as they are.
 */
export const passkeyOptionsSchema = z.object({ options: z.looseObject({ challenge: text() }) });
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

/** One of the person's passkeys on the account page. */
export const passkeySchema = z.object({
  id: z.uuid(),
  name: text(),
  /** The authenticator's name from its AAGUID (the community list), or null when unknown. */
  authenticator: text().nullable(),
  /** Synced between devices (backed up), as the authenticator said at its last use. */
  synced: z.boolean(),
  /** ISO 8601 instants. */
  createdAt: text(),
  lastUsedAt: text().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const passkeyIdSchema = z.object({ id: z.uuid() });
export const passkeyRenameRequestSchema = z.object({ name: passkeyNameSchema });
export type PasskeyRenameRequest = z.infer<typeof passkeyRenameRequestSchema>;

export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponseSchema>;
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponseSchema>;
