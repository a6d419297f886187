import { z } from "zod";
import { text } from "./text.ts";

/** The paths FreeRADIUS's rest module calls (deploy/freeradius/mods-available/rest, docs/eduroam.md). */
export const radiusPaths = {
  authorize: "/api/radius/authorize",
  authenticate: "/api/radius/authenticate",
  postAuth: "/api/radius/post-auth",
  accounting: "/api/radius/accounting",
} as const;

/** Most network passwords one person holds (one per device). */
export const wifiPasswordLimit = 10;

/** A device's name as the person gives it ("My phone"). */
export const wifiPasswordName = text().trim().min(1).max(60);

/** One accepted Wi-Fi sign-in with a network password: when, which access point. */
export const wifiUseSchema = z.object({
  /** ISO 8601. */
  usedAt: text(),
  /** pap (EAP-TTLS) or mschapv2 (PEAP). */
  method: text(),
  /** Called-Station-Id: the access point's address and the network's name (`AA-BB-…:eduroam`), or empty. */
  accessPoint: text(),
  /** NAS-Identifier: the access point's or controller's own name, or empty. */
  nasIdentifier: text(),
});
export type WifiUse = z.infer<typeof wifiUseSchema>;

/** Where a device is connected now with a network password, from the controllers' accounting. */
export const wifiSessionSchema = z.object({
  /** The Wi-Fi controller holding the session, by the name the RADIUS server knows it by. */
  controller: text(),
  /** ISO 8601: when the session started (its first accounting). */
  since: text(),
});
export type WifiSession = z.infer<typeof wifiSessionSchema>;

/** A network password as listed: never the secret. */
export const wifiPasswordSchema = z.object({
  id: z.uuid(),
  name: text(),
  /** The identity to type for PEAP (username+device@realm); TTLS accepts username@realm as well. */
  identity: text(),
  createdAt: text(),
  lastUsedAt: text().nullable(),
  uses: z.array(wifiUseSchema),
  /** Open sessions: where the password is in use now (disconnected when it is revoked). */
  sessions: z.array(wifiSessionSchema),
});
export type WifiPassword = z.infer<typeof wifiPasswordSchema>;

export const wifiPasswordsSchema = z.object({
  passwords: z.array(wifiPasswordSchema),
  /** The identity for EAP-TTLS on any device: username@realm. */
  identity: text(),
  /** The outer (anonymous) identity devices should send: anonymous@realm. */
  anonymousIdentity: text(),
  /** The network's name (SSID). */
  ssid: text(),
  /** An operator turned the person's Wi-Fi off: no password works until it is turned on again. */
  wifiOff: z.boolean(),
  limit: z.number().int(),
});
export type WifiPasswords = z.infer<typeof wifiPasswordsSchema>;

export const createWifiPasswordSchema = z.object({ name: wifiPasswordName });
export type CreateWifiPassword = z.infer<typeof createWifiPasswordSchema>;

/** A new network password: shown once. */
export const createdWifiPasswordSchema = z.object({
  id: z.uuid(),
  name: text(),
  identity: text(),
  password: text(),
});
export type CreatedWifiPassword = z.infer<typeof createdWifiPasswordSchema>;

export const renameWifiPasswordSchema = z.object({ name: wifiPasswordName });

/** The console's Wi-Fi figures: accepted sign-ins per day and refusals by reason, over the last days. */
export const wifiStatsSchema = z.object({
  days: z.array(z.object({ day: text(), accepted: z.number().int(), refused: z.number().int() })),
  failures: z.array(z.object({ reason: text(), count: z.number().int() })),
});
export type WifiStats = z.infer<typeof wifiStatsSchema>;

/** A person's Wi-Fi in the console: their devices (no secrets) and whether Wi-Fi is off. */
export const adminWifiSchema = z.object({
  passwords: z.array(wifiPasswordSchema),
  wifiOff: z.boolean(),
});
export type AdminWifi = z.infer<typeof adminWifiSchema>;
