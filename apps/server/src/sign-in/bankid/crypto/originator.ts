/// <reference path="./bankid-modules.d.ts" />
import jkurwa, { type Certificate, type Priv, type Pub } from "jkurwa";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import { type BankTrust, issuerOf } from "./bank-signature.ts";
import { childrenOf, contentOf, elementOf, parseOne } from "./der-tree.ts";
import type { PartyId } from "./envelope-format.ts";
import { allowsKeyAgreement } from "./organisation-certificate.ts";

// The originator's public key in a kari envelope. Dynamic agreement carries an ephemeral key on our
// curve. Static agreement (NBU's default) names the bank's encryption certificate by issuer and serial
// number or by subject key id; the node sends it in the answer's `cert`, or the envelope carries it in its
// originatorInfo (where cryptonite looks when `cert` holds another). Either way it is used only after it
// proves to be the one named, to chain to the configured qualified CAs, to be valid now, not revoked, for
// key agreement, on our curve, and the certificate of the bank `memberId` names: carried is not trusted.

export type OriginatorFailure =
  | "originator_certificate_missing"
  | "originator_certificate_mismatch"
  | "originator_untrusted"
  | "originator_not_key_agreement"
  | "originator_not_the_bank"
  | "originator_curve_mismatch";

/** What the resource answer says beside the envelope. */
export interface AnswerContext {
  /** The answer's `cert`: base64 DER of the bank's (encryption) certificate. */
  certificate?: string;
  /** The answer's `memberId`, already checked against the bank the person picked. */
  memberId?: string;
}

/** A certificate's issuer Name (DER) and serial number (the INTEGER's content). */
export function certificateId(certificate: Certificate): { issuer: Buffer; serial: Buffer } {
  const [tbs] = childrenOf(parseOne(certificate.as_asn1()), 0x30);
  const fields = [...childrenOf(tbs, 0x30)];
  if (fields[0]?.tag === 0xa0) fields.shift();
  const serial = contentOf(fields.shift(), 0x02);
  fields.shift();
  return { issuer: elementOf(fields.shift(), 0x30), serial };
}

const withoutSignBytes = (serial: Buffer) =>
  serial.subarray(
    Math.max(
      0,
      serial.findIndex((byte) => byte !== 0),
    ),
  );

/** Whether `party` names `certificate`. */
export function names(party: PartyId, certificate: Certificate): boolean {
  if (party.kind === "subjectKeyIdentifier") {
    const own = certificate.extension.subjectKeyIdentifier;
    return !!own && sameBytes(Buffer.from(own), party.keyId);
  }
  const own = certificateId(certificate);
  return sameBytes(own.issuer, party.issuer) && sameBytes(withoutSignBytes(own.serial), withoutSignBytes(party.serial));
}

/**
 * The organisation code (ЄДРПОУ) a qualified certificate gives its owner: the subject directory attribute
 * 1.2.804.2.1.1.1.11.1.4.2.1, or the subject's organizationIdentifier `NTRUA-<code>`. KPI ID assumes
 * NBU's `memberId` is the bank's ЄДРПОУ code (docs/bankid.md, "Static key agreement").
 */
export function organisationCodeOf(certificate: Certificate): string | undefined {
  const fromAttributes = certificate.extension.ipn?.EDRPOU;
  if (fromAttributes) return fromAttributes;
  return /^NTRUA-(\d+)$/.exec(certificate.subject.organizationIdentifier ?? "")?.[1];
}

const sameCode = (a: string, b: string) => a.replace(/^0+/, "") === b.replace(/^0+/, "");

/** A public key (the OCTET STRING of its little-endian compressed point) on our key's curve. */
export function keyOnOurCurve(ours: Priv, octetString: Buffer): Pub | undefined {
  const point = contentOf(parseOne(octetString), 0x04);
  if (point.length === 0 || point.length > Math.ceil(ours.curve.m / 8)) return undefined;
  const bigEndian = Buffer.concat([Buffer.from([0]), Buffer.from(point).reverse()]);
  return ours.curve.pubkey(bigEndian, "buf8");
}

function sameCurve(theirs: Pub, ours: Priv): boolean {
  const [a, b] = [theirs.curve, ours.curve];
  return a === b || (a.m === b.m && a.b.equals(b.b) && a.a.equals(b.a) && a.base.x.equals(b.base.x));
}

/** Where the certificate the originator names was found. */
export type OriginatorSource = "the answer's cert" | "the envelope's certificates";

function readable(der: Buffer): Certificate | undefined {
  try {
    return jkurwa.Certificate.from_asn1(der);
  } catch {
    return undefined;
  }
}

/** The certificate the originator names: the answer's `cert` first, then those the envelope carries. */
function namedCertificate(
  originator: PartyId,
  answer: AnswerContext,
  carried: Buffer[],
): { certificate: Certificate; source: OriginatorSource } | OriginatorFailure {
  const fromAnswer = answer.certificate ? readable(Buffer.from(answer.certificate, "base64")) : undefined;
  if (fromAnswer && names(originator, fromAnswer)) return { certificate: fromAnswer, source: "the answer's cert" };
  const inEnvelope = carried.map(readable).find((each) => each !== undefined && names(originator, each));
  if (inEnvelope) return { certificate: inEnvelope, source: "the envelope's certificates" };
  return fromAnswer || carried.length > 0 ? "originator_certificate_mismatch" : "originator_certificate_missing";
}

/** What a revoked (or unknown) bank encryption certificate makes of the envelope (also envelope-opener.ts's). */
export const originatorRevocationFailure: OriginatorFailure = "originator_untrusted";

export function staticOriginatorKey(
  originator: PartyId,
  answer: AnswerContext,
  carried: Buffer[],
  ours: Priv,
  trust: BankTrust,
  now: Date,
): { key: Pub; source: OriginatorSource } | OriginatorFailure {
  const named = namedCertificate(originator, answer, carried);
  if (typeof named === "string") return named;
  const { certificate, source } = named;
  const issuer = issuerOf(certificate, trust, now);
  if (!issuer || now.getTime() < certificate.valid.from || now.getTime() >= certificate.valid.to)
    return "originator_untrusted";
  if ((trust.revocation?.status(certificate, issuer, now) ?? "good") !== "good") return originatorRevocationFailure;
  if (!allowsKeyAgreement(certificate)) return "originator_not_key_agreement";
  const code = organisationCodeOf(certificate);
  if (!code || !answer.memberId || !sameCode(code, answer.memberId)) return "originator_not_the_bank";
  try {
    const theirs = certificate.pubkey_unpack();
    if (!sameCurve(theirs, ours)) return "originator_curve_mismatch";
    const key = keyOnOurCurve(ours, theirs.serialize());
    return key ? { key, source } : "originator_curve_mismatch";
  } catch {
    return "originator_curve_mismatch";
  }
}
