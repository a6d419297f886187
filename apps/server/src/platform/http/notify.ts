import type { Language } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { describeDevice } from "../device/describe-device.ts";
import { sendInBackground } from "../mail/mailer.ts";
import { type MessageContent, renderMessage } from "../mail/messages.ts";
import {
  type MethodChange,
  methodChangedNotice,
  newDeviceNotice,
  type Occurrence,
  passwordChangedNotice,
  type SignInMethodName,
} from "../mail/notices.ts";
import { type Recipient, verifiedAddressOf } from "../mail/verified-address.ts";
import { requestOrigin } from "./audit.ts";
import { requestLanguage } from "./language.ts";

const dateFormat: Record<Language, string> = { uk: "uk-UA", en: "en-GB" };

/** What happened where, from this request, in the person's language. */
export function occurrenceOf(request: FastifyRequest, language: Language): Occurrence {
  const { ip, userAgent } = requestOrigin(request);
  const { browser, system } = describeDevice(userAgent ?? null);
  // Campus time: the person reads it where they are, and the campus is in Kyiv.
  const when = new Intl.DateTimeFormat(dateFormat[language], {
    dateStyle: "long",
    timeStyle: "long",
    timeZone: "Europe/Kyiv",
  }).format(request.server.clock());
  return { when, device: [browser, system].filter(Boolean).join(", "), address: ip };
}

/** Sends the person a message in the language of this request, when they have a verified address. */
export function mailPerson(
  request: FastifyRequest,
  person: Recipient,
  compose: (language: Language, occurrence: Occurrence, support: string) => MessageContent,
): void {
  const to = verifiedAddressOf(person);
  if (!to) return;
  const language = requestLanguage(request);
  const content = compose(language, occurrenceOf(request, language), request.server.config.support.email);
  sendInBackground(request.server, { to, ...renderMessage(content, language) });
}

export function notifyPasswordChanged(request: FastifyRequest, person: Recipient): void {
  mailPerson(request, person, passwordChangedNotice);
}

export function notifyNewDevice(request: FastifyRequest, person: Recipient): void {
  mailPerson(request, person, newDeviceNotice);
}

/**
 * "A sign-in method was added or removed": call it after linking or unlinking Google (or setting a
 * first password), with the person's row as it is now.
 */
export function notifySignInMethodChanged(
  request: FastifyRequest,
  person: Recipient,
  method: SignInMethodName,
  change: MethodChange,
): void {
  mailPerson(request, person, (language, occurrence, support) =>
    methodChangedNotice(language, method, change, occurrence, support),
  );
}
