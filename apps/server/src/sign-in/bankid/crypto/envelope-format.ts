import {
  childrenOf,
  contentOf,
  DerError,
  type DerNode,
  derElement,
  derInteger,
  derNull,
  derOctets,
  derOid,
  derSequence,
  elementOf,
  oidText,
  parseOne,
} from "./der-tree.ts";

// The CMS EnvelopedData BankID NBU sends (RFC 5652 §6 with DSTU 4145 key agreement: one kari recipient),
// read and written element by element. Every shape the NBU specification allows is read: the originator
// as an ephemeral key (dynamic agreement) or named by issuer and serial number or by subject key id
// (static agreement: its key is the bank's encryption certificate), `ukm` present or absent, the
// recipient named by subject key id or issuer and serial number. Which algorithms are acceptable is the
// reader's decision (envelope-reader.ts), not this file's.

export const oids = {
  envelopedData: "1.2.840.113549.1.7.3",
  data: "1.2.840.113549.1.7.1",
  dstu4145le: "1.2.804.2.1.1.1.1.3.1.1",
  /** dhSinglePass-cofactorDH-gost34311kdf */
  cofactorDhGost34311Kdf: "1.2.804.2.1.1.1.1.3.4",
  gost28147CfbWrap: "1.2.804.2.1.1.1.1.1.1.5",
  /** "id-gost28147-ofb" in DSTU naming; the cipher is gamma (counter) mode. */
  gost28147Counter: "1.2.804.2.1.1.1.1.1.1.2",
  gost28147Cfb: "1.2.804.2.1.1.1.1.1.1.3",
} as const;

/** A certificate named by issuer (its Name's DER) and serial number (the INTEGER's content), or by key id. */
export type PartyId =
  | { kind: "issuerAndSerialNumber"; issuer: Buffer; serial: Buffer }
  | { kind: "subjectKeyIdentifier"; keyId: Buffer };

export type Originator =
  | PartyId
  /** `publicKey` is the BIT STRING's content after its unused-bits byte: an OCTET STRING element. */
  | { kind: "originatorKey"; algorithm: string; publicKey: Buffer };

export interface BankIdEnvelope {
  originator: Originator;
  /** originatorInfo's certificates (DER), those the sender chose to carry; none when it is absent. */
  carriedCertificates: Buffer[];
  ukm?: Buffer;
  keyEncryptionAlgorithm: string;
  keyWrapAlgorithm: string;
  recipient: PartyId;
  encryptedKey: Buffer;
  contentCipher: string;
  iv: Buffer;
  /** A GOST 28147 S-box in DKE form; absent means DKE №1. */
  dke?: Buffer;
  encryptedContent: Buffer;
}

const tags = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  oid: 0x06,
  sequence: 0x30,
  set: 0x31,
  context0: 0xa0,
  context1: 0xa1,
  context0Primitive: 0x80,
} as const;

function algorithmOf(node: DerNode | undefined): { algorithm: string; parameters?: DerNode } {
  const [oid, parameters] = childrenOf(node, tags.sequence);
  return { algorithm: oidText(contentOf(oid, tags.oid)), parameters };
}

function issuerAndSerial(node: DerNode | undefined): PartyId {
  const [issuer, serial] = childrenOf(node, tags.sequence);
  return {
    kind: "issuerAndSerialNumber",
    issuer: elementOf(issuer, tags.sequence),
    serial: contentOf(serial, tags.integer),
  };
}

function readOriginator(node: DerNode | undefined): Originator {
  const [inner] = childrenOf(node, tags.context0);
  if (inner?.tag === tags.sequence) return issuerAndSerial(inner);
  if (inner?.tag === tags.context0Primitive) return { kind: "subjectKeyIdentifier", keyId: inner.value };
  const [algorithm, publicKey] = childrenOf(inner, tags.context1);
  const bits = contentOf(publicKey, tags.bitString);
  if (bits[0] !== 0) throw new DerError("public key with unused bits");
  return { kind: "originatorKey", algorithm: algorithmOf(algorithm).algorithm, publicKey: bits.subarray(1) };
}

function readRecipient(node: DerNode | undefined): PartyId {
  if (node?.tag === tags.sequence) return issuerAndSerial(node);
  const [keyId] = childrenOf(node, tags.context0);
  return { kind: "subjectKeyIdentifier", keyId: contentOf(keyId, tags.octetString) };
}

function readKeyAgreement(node: DerNode | undefined) {
  const fields = [...childrenOf(node, tags.context1)];
  contentOf(fields.shift(), tags.integer);
  const originator = readOriginator(fields.shift());
  // ukm [1] EXPLICIT OCTET STRING OPTIONAL: the real sample has none (research/bankid-nbu.md §3.1).
  const ukm =
    fields[0]?.tag === tags.context1
      ? contentOf(childrenOf(fields.shift(), tags.context1)[0], tags.octetString)
      : undefined;
  const keyEncryption = algorithmOf(fields.shift());
  const wrap = algorithmOf(keyEncryption.parameters);
  const keys = childrenOf(fields.shift(), tags.sequence);
  const [only] = keys;
  if (keys.length !== 1) throw new DerError("expected one recipient encrypted key");
  const [rid, encryptedKey] = childrenOf(only, tags.sequence);
  return {
    originator,
    ukm,
    keyEncryptionAlgorithm: keyEncryption.algorithm,
    keyWrapAlgorithm: wrap.algorithm,
    recipient: readRecipient(rid),
    encryptedKey: contentOf(encryptedKey, tags.octetString),
  };
}

function readEncryptedContent(node: DerNode | undefined) {
  const [, cipherNode, content] = childrenOf(node, tags.sequence);
  const cipher = algorithmOf(cipherNode);
  const [iv, dke] = childrenOf(cipher.parameters, tags.sequence);
  // [0] IMPLICIT OCTET STRING: primitive in DER, constructed (in pieces) in BER.
  const encryptedContent =
    content?.tag === tags.context0 && content.children
      ? Buffer.concat(content.children.map((piece) => contentOf(piece, tags.octetString)))
      : contentOf(content, tags.context0Primitive);
  return {
    contentCipher: cipher.algorithm,
    iv: contentOf(iv, tags.octetString),
    dke: dke ? contentOf(dke, tags.octetString) : undefined,
    encryptedContent,
  };
}

/** OriginatorInfo ::= [0] IMPLICIT { certs [0] IMPLICIT CertificateSet OPTIONAL, crls [1] … OPTIONAL }. */
function readCarriedCertificates(node: DerNode | undefined): Buffer[] {
  const certificates = childrenOf(node, tags.context0).find((field) => field.tag === tags.context0);
  // Only plain certificates: the other CertificateChoices (attribute certificates, …) never hold a bank's key.
  return (certificates?.children ?? []).filter((each) => each.tag === tags.sequence).map((each) => each.encoded);
}

/** The envelope's parts, or undefined when it is not an EnvelopedData with one key-agreement recipient. */
export function readEnvelope(der: Buffer): BankIdEnvelope | undefined {
  try {
    const [type, wrapped] = childrenOf(parseOne(der), tags.sequence);
    if (oidText(contentOf(type, tags.oid)) !== oids.envelopedData) return undefined;
    const fields = [...childrenOf(childrenOf(wrapped, tags.context0)[0], tags.sequence)];
    contentOf(fields.shift(), tags.integer);
    // originatorInfo [0]: where cryptonite looks for the bank's certificate when `cert` is not it.
    const carriedCertificates = fields[0]?.tag === tags.context0 ? readCarriedCertificates(fields.shift()) : [];
    const recipients = childrenOf(fields.shift(), tags.set);
    if (recipients.length !== 1) return undefined;
    return { ...readKeyAgreement(recipients[0]), carriedCertificates, ...readEncryptedContent(fields.shift()) };
  } catch (error) {
    if (error instanceof DerError) return undefined;
    throw error;
  }
}

function writeParty(party: PartyId, keyIdTag: number): Buffer {
  if (party.kind === "issuerAndSerialNumber") return derSequence(party.issuer, derElement(tags.integer, party.serial));
  // The originator's [0] IMPLICIT SubjectKeyIdentifier, or the recipient's [0] IMPLICIT RecipientKeyIdentifier.
  return keyIdTag === tags.context0Primitive
    ? derElement(keyIdTag, party.keyId)
    : derElement(keyIdTag, derOctets(party.keyId));
}

function writeOriginator(originator: Originator): Buffer {
  if (originator.kind !== "originatorKey")
    return derElement(tags.context0, writeParty(originator, tags.context0Primitive));
  const key = Buffer.concat([
    derSequence(derOid(originator.algorithm), derNull),
    derElement(tags.bitString, Buffer.concat([Buffer.from([0]), originator.publicKey])),
  ]);
  return derElement(tags.context0, derElement(tags.context1, key));
}

/** The DER of an envelope (the stand-in and the tests make them; the server only reads). */
export function writeEnvelope(envelope: BankIdEnvelope): Buffer {
  const keyAgreement = derElement(
    tags.context1,
    Buffer.concat([
      derInteger(3),
      writeOriginator(envelope.originator),
      envelope.ukm ? derElement(tags.context1, derOctets(envelope.ukm)) : Buffer.alloc(0),
      derSequence(derOid(envelope.keyEncryptionAlgorithm), derSequence(derOid(envelope.keyWrapAlgorithm), derNull)),
      derSequence(derSequence(writeParty(envelope.recipient, tags.context0), derOctets(envelope.encryptedKey))),
    ]),
  );
  const cipherParameters = derSequence(
    derOctets(envelope.iv),
    envelope.dke ? derOctets(envelope.dke) : Buffer.alloc(0),
  );
  const encryptedContentInfo = derSequence(
    derOid(oids.data),
    derSequence(derOid(envelope.contentCipher), cipherParameters),
    derElement(tags.context0Primitive, envelope.encryptedContent),
  );
  const originatorInfo =
    envelope.carriedCertificates.length > 0
      ? derElement(tags.context0, derElement(tags.context0, Buffer.concat(envelope.carriedCertificates)))
      : Buffer.alloc(0);
  const enveloped = derSequence(
    derInteger(2),
    originatorInfo,
    derElement(tags.set, keyAgreement),
    encryptedContentInfo,
  );
  return derSequence(derOid(oids.envelopedData), derElement(tags.context0, enveloped));
}
