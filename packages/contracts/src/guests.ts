import { z } from "zod";
import { languages } from "./messages.ts";
import { text } from "./text.ts";

/** Most units and applications one invitation names. */
export const guestNeedsLimit = 10;

const calendarDay = text().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");

/** What a sponsor types to invite a guest (docs/visitors.md). */
export const guestInvitationRequestSchema = z.object({
  fullName: text().trim().min(1).max(200),
  email: z.email().max(254),
  /** The guest's last day (Europe/Kyiv), at most GUEST_MAX_DAYS from today. */
  endsOn: calendarDay,
  unitIds: z.array(z.uuid()).max(guestNeedsLimit).default([]),
  applicationIds: z.array(z.uuid()).max(guestNeedsLimit).default([]),
  reason: text().trim().min(1).max(500),
  /** The language of the invitation mail. */
  language: z.enum(languages),
});
export type GuestInvitationRequest = z.input<typeof guestInvitationRequestSchema>;

/** One click extends to the furthest end allowed; a day may be named instead (never past it). */
export const guestExtendRequestSchema = z.object({ endsOn: calendarDay.optional() }).default({});

export const guestStates = ["invited", "active", "ended"] as const;
export type GuestState = (typeof guestStates)[number];

const namedSchema = z.object({ id: z.uuid(), name: text() });

export const guestSchema = z.object({
  id: z.uuid(),
  fullName: text(),
  email: text(),
  username: text(),
  state: z.enum(guestStates),
  /** ISO 8601: the moment the guest's stay ends (the end of their last day in Kyiv). */
  endsAt: text(),
  createdAt: text(),
  reason: text(),
  units: z.array(namedSchema),
  applications: z.array(namedSchema),
  /** Whether the account was proven by the state (Diia or BankID) rather than only by the invitation mail. */
  identityProofed: z.boolean(),
});
export type Guest = z.infer<typeof guestSchema>;

/** The sponsor's card: their guests, what they may name, and the furthest end allowed today. */
export const sponsorGuestsSchema = z.object({
  mayInvite: z.boolean(),
  guests: z.array(guestSchema),
  units: z.array(namedSchema),
  applications: z.array(namedSchema),
  /** YYYY-MM-DD: the last day an end may be set to today. */
  latestEndOn: text(),
  limit: z.number().int(),
});
export type SponsorGuests = z.infer<typeof sponsorGuestsSchema>;

/** The invitation link's page: whom it welcomes (the sponsor never learns whether it was opened). */
export const guestInvitationViewSchema = z.object({ fullName: text(), sponsor: text(), endsAt: text() });
export type GuestInvitationView = z.infer<typeof guestInvitationViewSchema>;

export const guestTokenSchema = z.object({ token: text().min(20).max(100) });

/** Accepting: the address the invitation was sent to (the link works for it only) and the new password. */
export const guestAcceptRequestSchema = guestTokenSchema.extend({
  email: z.email().max(254),
  password: text().min(1).max(1024),
});
export type GuestAcceptRequest = z.infer<typeof guestAcceptRequestSchema>;

export const guestAcceptedSchema = z.object({ next: text() });

/** Accepting with the state's identity (BankID): the address, then the bank; `url` is where the browser goes. */
export const guestStateAcceptRequestSchema = guestTokenSchema.extend({ email: z.email().max(254) });
export type GuestStateAcceptRequest = z.infer<typeof guestStateAcceptRequestSchema>;
export const guestStateAcceptStartedSchema = z.object({ url: text() });

/** The console's list: every guest with their sponsor and units, filterable by sponsor and unit. */
export const adminGuestSchema = guestSchema.extend({
  sponsor: z.object({ id: z.uuid(), name: text(), username: text() }).nullable(),
  handedOver: z.boolean(),
});
export type AdminGuest = z.infer<typeof adminGuestSchema>;

export const adminGuestsQuerySchema = z.object({
  sponsor: text().max(128).optional(),
  unit: z.uuid().optional(),
  state: z.enum(guestStates).optional(),
});

export const adminGuestsSchema = z.object({ guests: z.array(adminGuestSchema) });
export type AdminGuests = z.infer<typeof adminGuestsSchema>;
