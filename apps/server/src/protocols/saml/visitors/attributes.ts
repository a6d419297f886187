import type { HomeIdentity } from "../../../model/visitors/identities.ts";

/** The attributes a home institution releases to KPI ID (SAML2int, REFEDS R&S), by their URI names. */
export const releasedAttributes = {
  subjectId: "urn:oasis:names:tc:SAML:attribute:subject-id",
  pairwiseId: "urn:oasis:names:tc:SAML:attribute:pairwise-id",
  eppn: "urn:oid:1.3.6.1.4.1.5923.1.1.1.6",
  displayName: "urn:oid:2.16.840.1.113730.3.1.241",
  givenName: "urn:oid:2.5.4.42",
  surname: "urn:oid:2.5.4.4",
  mail: "urn:oid:0.9.2342.19200300.100.1.3",
  scopedAffiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.9",
  assurance: "urn:oid:1.3.6.1.4.1.5923.1.1.1.11",
} as const;

export type Released = Record<string, string[]>;

/** What a verified answer says about the person, before KPI ID decides what to do with it. */
export interface VisitorAnswer {
  identity: HomeIdentity;
  name: string;
  email: string | null;
  /** The AuthnContextClassRef the institution reports (REFEDS MFA makes the session multi-factor). */
  authnContext: string | undefined;
}

/** A refusal of the answer, with why (for the log and the audit row; the person sees the code's message). */
export class AnswerRefused extends Error {
  override name = "AnswerRefused";
  readonly code: "institution.answer_refused" | "institution.name_missing";
  constructor(reason: string, code: AnswerRefused["code"] = "institution.answer_refused") {
    super(reason);
    this.code = code;
  }
}

const first = (released: Released, name: string) => released[name]?.[0]?.trim() || undefined;

/** "local@scope": the scope must be one the institution's metadata declares. */
function scopedValue(value: string, scopes: readonly string[], what: string): string {
  const at = value.lastIndexOf("@");
  const scope = value.slice(at + 1).toLowerCase();
  if (at <= 0 || !scopes.includes(scope))
    throw new AnswerRefused(`${what} has scope "${scope}", not the institution's`);
  return value;
}

/**
 * The identifier KPI ID keys the visitor by, best first: subject-id, pairwise-id (both scoped, never reassigned),
 * else eduPersonPrincipalName (which an institution may give to someone else later: kept with the persistent NameID).
 */
function identifierOf(released: Released, scopes: readonly string[], nameId: string | null) {
  const subjectId = first(released, releasedAttributes.subjectId);
  if (subjectId) return { subjectKind: "subject-id" as const, subject: scopedValue(subjectId, scopes, "subject-id") };
  const pairwiseId = first(released, releasedAttributes.pairwiseId);
  if (pairwiseId)
    return { subjectKind: "pairwise-id" as const, subject: scopedValue(pairwiseId, scopes, "pairwise-id") };
  const eppn = first(released, releasedAttributes.eppn);
  if (eppn)
    return { subjectKind: "eppn" as const, subject: scopedValue(eppn, scopes, "eduPersonPrincipalName"), nameId };
  throw new AnswerRefused("no subject-id, pairwise-id or eduPersonPrincipalName");
}

// Format and control characters (zero-width joiners, bidirectional overrides) make one name look like another.
const invisible = /[\p{Cf}\p{Cc}]/u;

function nameOf(released: Released): string {
  const display = first(released, releasedAttributes.displayName);
  const joined = [first(released, releasedAttributes.givenName), first(released, releasedAttributes.surname)]
    .filter((part) => part !== undefined)
    .join(" ");
  const name = (display ?? joined).normalize("NFC");
  if (name === "") throw new AnswerRefused("no displayName, givenName or sn", "institution.name_missing");
  if (invisible.test(name) || name.length > 200) throw new AnswerRefused("the name carries invisible characters");
  return name;
}

/** Reads the released attributes of a verified assertion into what KPI ID keeps of a visitor. */
export function readVisitor(
  released: Released,
  context: { institution: string; scopes: readonly string[]; nameId: string | null; authnContext: string | undefined },
): VisitorAnswer {
  const { subjectKind, subject } = identifierOf(released, context.scopes, context.nameId);
  const scopedAffiliations = (released[releasedAttributes.scopedAffiliation] ?? []).map((value) =>
    scopedValue(value.trim(), context.scopes, "eduPersonScopedAffiliation"),
  );
  const mail = first(released, releasedAttributes.mail);
  return {
    identity: {
      institution: context.institution,
      subjectKind,
      subject,
      nameId: subjectKind === "eppn" ? context.nameId : null,
      scopedAffiliations,
      assurance: (released[releasedAttributes.assurance] ?? []).map((value) => value.trim()).slice(0, 20),
    },
    name: nameOf(released),
    email: mail && /^[^\s@]+@[^\s@]+$/.test(mail) && mail.length <= 254 ? mail : null,
    authnContext: context.authnContext,
  };
}
