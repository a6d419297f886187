import { z } from "zod";
import { text } from "./text.ts";

/** Most application passwords one person holds at once. */
export const ldapPasswordLimit = 10;

/** What the person calls a password ("Lab computers", "Nextcloud on my laptop"). */
export const ldapPasswordName = text().trim().min(1).max(60);

/** One accepted bind with an application password: when, through which registered client, from where. */
export const ldapUseSchema = z.object({
  /** ISO 8601. */
  usedAt: text(),
  /** The registered client's title, or empty when the bind came from an address no client is registered for. */
  client: text(),
  /** The address the bind came from (the client machine's, not the person's device). */
  address: text(),
});
export type LdapUse = z.infer<typeof ldapUseSchema>;

/** An application password as listed: never the secret. */
export const ldapPasswordSchema = z.object({
  id: z.uuid(),
  name: text(),
  createdAt: text(),
  lastUsedAt: text().nullable(),
  /** The registered client it works through alone (its title); null: any. */
  clientTitle: text().nullable(),
  uses: z.array(ldapUseSchema),
});
export type LdapPassword = z.infer<typeof ldapPasswordSchema>;

export const ldapPasswordsSchema = z.object({
  passwords: z.array(ldapPasswordSchema),
  /** The DN to bind as: uid=username,ou=people,<base>. */
  bindDn: text(),
  /** The name most systems ask for (sssd, Nextcloud, GitLab): the username. */
  username: text(),
  limit: z.number().int(),
  /** The registered clients a new password may be tied to: those that may let this person bind. */
  clients: z.array(z.object({ id: z.uuid(), title: text() })),
});
export type LdapPasswords = z.infer<typeof ldapPasswordsSchema>;

export const createLdapPasswordSchema = z.object({
  name: ldapPasswordName,
  /** Works only through this registered client (one of `clients`); absent or null: through any. */
  clientId: z.uuid().nullable().optional(),
});
export type CreateLdapPassword = z.infer<typeof createLdapPasswordSchema>;

/** A new application password: shown once. */
export const createdLdapPasswordSchema = z.object({
  id: z.uuid(),
  name: text(),
  password: text(),
});
export type CreatedLdapPassword = z.infer<typeof createdLdapPasswordSchema>;
