import { DOMParser, type Element } from "@xmldom/xmldom";
import type { FastifyInstance } from "fastify";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import { entitiesFor, type LogoutSubject, logoutRequestXml } from "./logout-steps.ts";
import { ns } from "./namespaces.ts";

/** How long one SP may take to answer its LogoutRequest: a sign-out does not wait on a slow SP longer. */
const noticeTimeoutMs = 3000;
const soapBinding = "urn:oasis:names:tc:SAML:2.0:bindings:SOAP";
const soapEnvelope = "http://schemas.xmlsoap.org/soap/envelope/";

/** The SP's SingleLogoutService for the SOAP binding (saml-bindings §3.2), from its metadata; else undefined. */
function soapLogoutService(metadataXml: string): string | undefined {
  const document = new DOMParser().parseFromString(metadataXml, "text/xml");
  const services = Array.from(document.getElementsByTagNameNS(ns.md, "SingleLogoutService")) as Element[];
  return (
    services.find((service) => service.getAttribute("Binding") === soapBinding)?.getAttribute("Location") ?? undefined
  );
}

/** One SP told over the back channel: a signed LogoutRequest in a SOAP envelope, its answer read and dropped. */
async function tellServiceProvider(app: FastifyInstance, subject: LogoutSubject): Promise<void> {
  const sp = await findServiceProvider(app.db, subject.sp_entity_id, app.clock());
  const destination = sp ? soapLogoutService(sp.metadata_xml) : undefined;
  if (!sp || !destination) return;
  const entities = await entitiesFor(app, sp);
  // samlify signs the request as for HTTP-POST (an enveloped signature after the Issuer) and base64-encodes it.
  const made = entities.idp.createLogoutRequest(
    entities.sp,
    "post",
    { logoutNameID: subject.name_id, sessionIndex: subject.session_index },
    { customTagReplacement: () => logoutRequestXml(app.config.saml.entityId, app.clock(), destination, subject) },
  );
  const signed = Buffer.from(made.context, "base64").toString("utf8");
  const response = await fetch(destination, {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8", soapaction: "http://www.oasis-open.org/committees/security" },
    body: `<soap11:Envelope xmlns:soap11="${soapEnvelope}"><soap11:Body>${signed}</soap11:Body></soap11:Envelope>`,
    redirect: "manual",
    signal: AbortSignal.timeout(noticeTimeoutMs),
  });
  await response.body?.cancel();
  if (response.status !== 200)
    app.log.warn({ sp: subject.sp_entity_id, status: response.status }, "saml: back-channel logout refused");
}

/**
 * SAML's back channel, for sessions that end without a browser to walk (a password change or reset, an operator,
 * disabling): every SP the sessions signed in to that has a SOAP SingleLogoutService gets a signed LogoutRequest
 * there, all at once (saml-profiles §4.4.3.4); an SP with none cannot be told without the person's browser. A
 * failure is logged and never blocks the sign-out.
 */
export async function tellServiceProviders(app: FastifyInstance, subjects: readonly LogoutSubject[]): Promise<void> {
  await Promise.all(
    subjects.map((subject) =>
      tellServiceProvider(app, subject).catch((error: unknown) =>
        app.log.warn({ err: error, sp: subject.sp_entity_id }, "saml: back-channel logout could not reach the SP"),
      ),
    ),
  );
}
