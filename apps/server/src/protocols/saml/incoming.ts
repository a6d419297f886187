import { inflateRawSync } from "node:zlib";

/*
 * A SAML message as it arrives, before anything parses it: what the routes need without loading
 * samlify or xmldom (authn-request.ts and the modules it uses load on the first SAML request).
 */

/** AuthnRequests are a few KiB; anything bigger is not one. */
export const maxAuthnRequestBytes = 64 * 1024;

export type Binding = "redirect" | "post";

export interface IncomingRequest {
  binding: Binding;
  /** Query (redirect) or form fields (post), as received. */
  fields: Record<string, string | undefined>;
  /** The raw query string, for the redirect binding's signature. */
  rawQuery: string;
}

/** A logout message by either binding: a LogoutRequest (SAMLRequest) or a LogoutResponse (SAMLResponse). */
// A type, not an interface: samlify takes the fields as a Record<string, unknown>.
export type LogoutFields = {
  SAMLRequest?: string;
  SAMLResponse?: string;
  RelayState?: string;
  SigAlg?: string;
  Signature?: string;
};

/** A refusal the SP never hears about: an unknown SP or a broken request has nowhere safe to be answered. */
export class SamlRequestRefused extends Error {
  override name = "SamlRequestRefused";
  /** The code the browser's page shows: what the SP's operator must change, when KPI ID can say. */
  readonly code: "saml.request_refused" | "saml.weak_signature";
  constructor(message: string, code: "saml.request_refused" | "saml.weak_signature" = "saml.request_refused") {
    super(message);
    this.code = code;
  }
}

/** The XML of a SAMLRequest by either binding: inflated (Redirect) within the size limit. */
export function decodeXml({ binding, fields }: IncomingRequest): string {
  const encoded = fields.SAMLRequest;
  if (!encoded || encoded.length > maxAuthnRequestBytes * 2) throw new SamlRequestRefused("no SAMLRequest");
  const bytes = Buffer.from(encoded, "base64");
  // HTTP-POST carries the XML as is; some SPs (node-saml by default) deflate it anyway, which is tolerated.
  if (binding === "post" && bytes.toString("utf8").trimStart().startsWith("<")) return bytes.toString("utf8");
  try {
    return inflateRawSync(bytes, { maxOutputLength: maxAuthnRequestBytes }).toString("utf8");
  } catch {
    throw new SamlRequestRefused("SAMLRequest does not inflate within the size limit");
  }
}
