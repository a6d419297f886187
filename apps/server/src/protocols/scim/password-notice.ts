import { defaultLanguage, type Language, requestedLanguage } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { User } from "../../platform/db/schema.ts";
import { occurrenceOf } from "../../platform/http/notify.ts";
import { sendInBackground } from "../../platform/mail/mailer.ts";
import { renderMessage } from "../../platform/mail/messages.ts";
import { pushedPasswordNotice } from "../../platform/mail/provisioning-notices.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import { scimTokenOf } from "./auth.ts";

type Notified = Pick<User, "username" | "email" | "verified_email" | "language" | "scim_attributes">;

/**
 * Where the notice of a pushed password goes: the address KPI ID has seen proven, else the person's primary
 * address as the organisation's records give it. That column is written only by the organisation's sources (this
 * SCIM client's `emails`, the import, an operator), never by the person, so it is not an address anyone could
 * point at themselves; a person Okta has just created has no other.
 */
export function pushedPasswordAddress(person: Pick<User, "email" | "verified_email">): string | undefined {
  return verifiedAddressOf(person) ?? person.email ?? undefined;
}

/**
 * The person's language: that of their last sign-in, else what the account system says of them (SCIM
 * `preferredLanguage`, then `locale`, kept as sent), else Ukrainian. Never the request's: that is the client's.
 */
export function pushedPasswordLanguage(person: Pick<User, "language" | "scim_attributes">): Language {
  const kept = person.scim_attributes ?? {};
  const tag = (key: string) => (typeof kept[key] === "string" ? kept[key] : undefined);
  return (
    person.language ??
    requestedLanguage(tag("preferredLanguage")) ??
    requestedLanguage(tag("locale")) ??
    defaultLanguage
  );
}

/** Tells the person a password was set for them over SCIM (issue 59): no secret, what to do if unexpected. */
export function notifyPushedPassword(request: FastifyRequest, person: Notified, replaced: boolean): void {
  const to = pushedPasswordAddress(person);
  if (!to) return;
  const language = pushedPasswordLanguage(person);
  const facts = {
    username: person.username,
    client: scimTokenOf(request).name,
    replaced,
    when: occurrenceOf(request, language).when,
  };
  const content = pushedPasswordNotice(language, facts, request.server.config.support.email);
  sendInBackground(request.server, { to, ...renderMessage(content, language) });
}
