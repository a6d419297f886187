import { z } from "zod";
import { pendingChangeSchema } from "./developer-changes.ts";
import { text } from "./text.ts";

/**
 * The developers' page (`/{lang}/developers`, issue 39): people register their own applications,
 * test them with named testers, and ask operators to let everyone in.
 */

/** testing → in_review → live, or rejected (and back to in_review on a new request). */
export const applicationLifecycles = ["testing", "in_review", "live", "rejected"] as const;
export type ApplicationLifecycle = (typeof applicationLifecycles)[number];

/** Named testers an application in testing may have besides its owners. */
export const developerTesterLimit = 25;
/** Scopes a developer may ask for; the tax id is an operator's decision (issue 19), not on this page. */
export const developerScopes = ["openid", "profile", "email", "kpi", "offline_access"] as const;

/**
 * What kind of application it is, chosen first at registration (issue 60) and fixed after: the page shows only what
 * that kind needs. `web`: a site with a server that keeps a secret (ticket callbacks and/or OpenID Connect redirect
 * URIs). `public`: a single-page or mobile application, an OpenID Connect public client with PKCE and no secret.
 * `device`: a command-line tool or a device without a browser, signing in by the device authorization grant
 * (RFC 8628), a public client with no address at all.
 */
export const developerClientTypes = ["web", "public", "device"] as const;
export type DeveloperClientType = (typeof developerClientTypes)[number];

/** The longest a replaced secret keeps working beside the new one (issue 60). */
export const secretOverlapMaxHours = 7 * 24;

const url = text().trim().max(2048);

/** The message a `displayText()` check fails with: the error code, so the server answers with it (error-handler). */
export const INVALID_CHARACTERS = "developer.invalid_characters";

/**
 * Control (Cc) and format (Cf) characters: CR, LF and the other C0/C1 controls, the bidirectional overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069), zero-width characters and marks (U+200B–U+200F), U+2060, U+FEFF; and
 * every other default-ignorable code point (U+034F, variation selectors, the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0, which are letters (Lo) a reader never sees: "KPI ID\u3164" looks exactly like "KPI ID").
 * None belongs in a name or description people read beside the university's own (issue 56).
 */
const controlOrFormat = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0]/u;

export function hasControlOrFormat(value: string): boolean {
  return controlOrFormat.test(value);
}

/** A title or description people read: storable and free of control, format and invisible characters. */
function displayText() {
  return text().refine((value) => !hasControlOrFormat(value), { message: INVALID_CHARACTERS, abort: true });
}

/** What an owner writes about an application, without defaults: an edit leaves out what stays. */
const developerApplicationFields = {
  title: displayText().trim().min(1).max(200),
  titleEn: displayText().trim().min(1).max(200),
  description: displayText().trim().max(1000),
  descriptionEn: displayText().trim().max(1000),
  /**
   * The application's icon as KPI ID serves it (`/api/developers/icons/{sha256}.png|svg`, uploaded through
   * `POST …/applications/{id}/icon`); empty for none. An address on another host is refused (issue 56).
   */
  iconUrl: url,
  homePageUrl: url,
  privacyPolicyUrl: url,
  /** Ticket callbacks (the first is the default); empty when the application uses OpenID Connect only. */
  callbackUrls: z.array(url).max(11),
  /** OpenID Connect redirect URIs; empty when the application uses tickets only. */
  redirectUris: z.array(url).max(20),
  scopes: z.array(z.enum(developerScopes)).max(developerScopes.length),
};

export const developerApplicationInputSchema = z.object({
  ...developerApplicationFields,
  clientType: z.enum(developerClientTypes).default("web"),
  description: developerApplicationFields.description.default(""),
  descriptionEn: developerApplicationFields.descriptionEn.default(""),
  iconUrl: url.default(""),
  homePageUrl: url.default(""),
  privacyPolicyUrl: url.default(""),
  callbackUrls: developerApplicationFields.callbackUrls.default([]),
  redirectUris: developerApplicationFields.redirectUris.default([]),
  scopes: developerApplicationFields.scopes.default(["openid", "profile"]),
});
export type DeveloperApplicationInput = z.input<typeof developerApplicationInputSchema>;

/**
 * An edit: a field left out stays. Built from the fields without their defaults: Zod 4 applies a default inside
 * `.partial()`, which turned every left-out field into its empty default and wiped it.
 */
export const developerApplicationUpdateSchema = z.object(developerApplicationFields).partial();
export type DeveloperApplicationUpdate = z.input<typeof developerApplicationUpdateSchema>;

/**
 * An owner or tester who accepted. Only the username: the developers' API gives out no id of another person
 * (an id is their OpenID Connect `sub`), and owners remove a person by the username they see.
 */
export const developerPersonSchema = z.object({
  username: text(),
  you: z.boolean(),
});
export type DeveloperPerson = z.infer<typeof developerPersonSchema>;

/** Owners decide everything about an application; testers may only sign in while it is not live. */
export const developerRoles = ["owner", "tester"] as const;
export type DeveloperRole = (typeof developerRoles)[number];

/** Days an invitation to become a co-owner or tester waits for its answer. */
export const developerInvitationDays = 14;

/**
 * An invitation the owners sent, as they see it: what they typed, never whether anyone holds it (an unknown,
 * disabled or shared address is listed just the same until it expires). Its id is the invitation's own.
 */
export const developerInvitationSchema = z.object({
  id: z.uuid(),
  role: z.enum(developerRoles),
  named: text(),
  invitedAt: text(),
  expiresAt: text(),
});
export type DeveloperInvitation = z.infer<typeof developerInvitationSchema>;

export const applicationReviewSchema = z.object({
  status: z.enum(["pending", "approved", "rejected"]),
  purpose: text(),
  dataNeeded: text(),
  /** The operator's reason for a rejection (empty otherwise). */
  reason: text(),
  requestedAt: text(),
  decidedAt: text().nullable(),
});
export type ApplicationReview = z.infer<typeof applicationReviewSchema>;

/** One of an application's secrets as its owners see it: never the secret, only when it came and was last used. */
export const developerSecretSchema = z.object({
  which: z.enum(["current", "previous"]),
  createdAt: text().nullable(),
  lastUsedAt: text().nullable(),
  /** When a replaced secret stops working; null for the current one. */
  endsAt: text().nullable(),
});
export type DeveloperSecret = z.infer<typeof developerSecretSchema>;

/** Replacing the secret: the old one keeps working this many hours beside the new one (0: it ends at once). */
export const secretReplacementSchema = z.object({
  overlapHours: z.number().int().min(0).max(secretOverlapMaxHours).default(0),
});
export type SecretReplacement = z.input<typeof secretReplacementSchema>;

/** Turning the device authorization grant on or off. */
export const deviceFlowSettingSchema = z.object({ enabled: z.boolean() });
export type DeviceFlowSetting = z.infer<typeof deviceFlowSettingSchema>;

/** Deleting an application: its owner types its name (in either language), as GitHub asks for a repository's. */
export const applicationDeletionSchema = z.object({ confirm: text().trim().min(1).max(64) });
export type ApplicationDeletion = z.infer<typeof applicationDeletionSchema>;

/** What "sign everyone out" or a deletion ended. */
export const signOutEveryoneResultSchema = z.object({ ok: z.literal(true), ended: z.number().int() });

export const developerApplicationSummarySchema = z.object({
  id: z.uuid(),
  title: text(),
  titleEn: text(),
  iconUrl: text(),
  lifecycle: z.enum(applicationLifecycles),
  suspended: z.boolean(),
  createdAt: text(),
});
export type DeveloperApplicationSummary = z.infer<typeof developerApplicationSummarySchema>;

/** An application's descriptions, addresses and scopes as stored: its owners' page and the review queue show them. */
export const developerApplicationDetails = {
  description: text(),
  descriptionEn: text(),
  homePageUrl: text(),
  privacyPolicyUrl: text(),
  callbackUrls: z.array(text()),
  redirectUris: z.array(text()),
  scopes: z.array(text()),
};

export const developerApplicationSchema = developerApplicationSummarySchema.extend({
  name: text(),
  ...developerApplicationDetails,
  owners: z.array(developerPersonSchema),
  testers: z.array(developerPersonSchema),
  /** Invitations not yet answered nor expired, oldest first. */
  invitations: z.array(developerInvitationSchema),
  review: applicationReviewSchema.nullable(),
  /** The newest change waiting for (or answered by) the operators, on an application that has gone live. */
  pendingChange: pendingChangeSchema.nullable(),
  clientType: z.enum(developerClientTypes),
  /** Whether the device authorization grant is on (the owner turns it on and off on the page). */
  deviceFlow: z.boolean(),
  /** Its secrets (none for a public client): the current one and, during an overlap, the one it replaced. */
  secrets: z.array(developerSecretSchema),
  /**
   * Whether the operators' answers can be mailed to the person viewing (a confirmed address): when not, the page says
   * so beside the review and the pending change, and the answer is only on the page (issue 60).
   */
  mailReachable: z.boolean(),
});
export type DeveloperApplication = z.infer<typeof developerApplicationSchema>;

export const developerApplicationsSchema = z.object({
  /** Whether this person may register applications (DEVELOPER_AFFILIATIONS). */
  allowed: z.boolean(),
  /** How many applications one person may own (DEVELOPER_MAX_APPLICATIONS). */
  limit: z.number().int(),
  applications: z.array(developerApplicationSummarySchema),
});
export type DeveloperApplications = z.infer<typeof developerApplicationsSchema>;

/** A new application or a rotated secret: the secret is shown this once; only its hash is kept. */
export const developerCredentialsSchema = z.object({
  application: developerApplicationSchema,
  secret: text(),
});
export type DeveloperCredentials = z.infer<typeof developerCredentialsSchema>;

/** A co-owner or tester to invite, named by exact username or e-mail address. */
export const developerPersonRequestSchema = z.object({ person: text().trim().min(1).max(254) });
export type DeveloperPersonRequest = z.infer<typeof developerPersonRequestSchema>;

/** A co-owner or tester to remove, by the username the list shows. */
export const developerPersonRemovalSchema = z.object({ username: text().trim().min(1).max(254) });
export type DeveloperPersonRemoval = z.infer<typeof developerPersonRemovalSchema>;

export const developerInvitationWithdrawalSchema = z.object({ invitation: z.uuid() });
export type DeveloperInvitationWithdrawal = z.infer<typeof developerInvitationWithdrawalSchema>;

/** Leaving an application: as its owner (not the last) or as its tester. */
export const developerLeaveSchema = z.object({ role: z.enum(developerRoles) });
export type DeveloperLeave = z.infer<typeof developerLeaveSchema>;

export const developerInvitationParamsSchema = z.object({ invitation: z.uuid() });

/** An invitation the signed-in person received, for the notice on their developers' page. */
export const receivedInvitationSchema = z.object({
  id: z.uuid(),
  role: z.enum(developerRoles),
  title: text(),
  titleEn: text(),
  /** The username of the owner who invited them; empty when that owner is gone. */
  invitedBy: text(),
  expiresAt: text(),
});
export type ReceivedInvitation = z.infer<typeof receivedInvitationSchema>;

/** What a person is asked to join and what they test (owned applications are in the list of their own). */
export const developerMembershipsSchema = z.object({
  invitations: z.array(receivedInvitationSchema),
  testing: z.array(developerApplicationSummarySchema),
});
export type DeveloperMemberships = z.infer<typeof developerMembershipsSchema>;

export const developerApplicationParamsSchema = z.object({ id: z.uuid() });
