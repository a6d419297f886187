// The parts of jkurwa and gost89 (plain CommonJS without types) that KPI ID uses.
// Shapes follow the libraries' sources in node_modules/jkurwa/lib and gost89/lib.

declare module "gost89" {
  /** GOST 34.311-95 over the DSTU 4145 default S-box: 32 bytes. */
  export function gosthash(data: Uint8Array | string): Buffer;
  const gost89: { gosthash: typeof gosthash };
  export default gost89;
}

declare module "jkurwa" {
  export type HashFunction = (data: Uint8Array) => Buffer;

  export interface Pub {
    verify(hash: Buffer, signature: Buffer, format?: "le"): boolean;
    keyid(options: { hash: HashFunction }): Buffer;
    serialize(): Buffer;
    validate(): boolean;
  }

  export interface Curve {
    keygen(): Priv;
    name(): string;
    /** A private key from its scalar, as `Priv.d.buf8()` gives it. */
    pkey(data: Uint8Array, format: "buf8"): Priv;
  }

  export interface Priv {
    algorithm: string;
    sbox?: Buffer;
    curve: Curve;
    /** The private scalar. */
    d: { buf8(): Uint8Array };
    pub(): Pub;
    sign(hash: Buffer, format: "le"): Buffer;
    as_asn1(): Buffer;
  }

  /** A decoded X.509 structure as asn1.js produces and consumes it. */
  export interface CertificateObject {
    tbsCertificate: TbsCertificate;
    signatureAlgorithm: { algorithm: string };
    signature: { unused: number; data: Buffer };
  }

  export interface ExtensionObject {
    extnID: string;
    extnValue: Buffer;
    critical?: boolean;
  }

  export interface TbsCertificate {
    serialNumber: unknown;
    extensions: ExtensionObject[];
    [field: string]: unknown;
  }

  export interface TbsInput {
    serial: number;
    pubkey: Pub;
    algorithm: string;
    sbox?: Buffer;
    curve: string;
    issuer: Record<string, string>;
    subject: Record<string, string>;
    valid: { from: number; to: number };
    usage: string;
    hash: HashFunction;
  }

  export class Certificate {
    static from_asn1(data: Buffer): Certificate;
    static from_pem(data: string | Buffer): Certificate;
    static createTBS(input: TbsInput): TbsCertificate;
    static encodeTBS(tbs: TbsCertificate): Buffer;
    /** `lazy`: the public key is unpacked at the first pubkey_unpack(), not now. */
    constructor(object: CertificateObject, lazy?: boolean);
    ob: CertificateObject;
    serial: { toString(base?: number): string };
    valid: { from: number; to: number };
    subject: Record<string, string | undefined>;
    issuer: Record<string, string | undefined>;
    signatureAlgorithm: string;
    extension: {
      ipn: Record<string, string | undefined> | null;
      subjectKeyIdentifier: Buffer | null;
      authorityKeyIdentifier: Buffer | null;
      basicConstraints?: Buffer;
      keyUsage?: Buffer;
      /** Raw DER of ExtKeyUsageSyntax when present. */
      extendedKeyUsage?: Buffer;
    };
    pubkey_unpack(): Pub;
    verifySignature(issuerKey: Pub, hashes: Record<string, HashFunction>): boolean;
    /** "ocspSigning" is true also without an extendedKeyUsage extension: check that it is present. */
    canUseFor(operation: "ca" | "sign" | "ocspSigning"): boolean;
    /** DER of the certificate's issuer Name (as an OCSP CertID hashes it). */
    name_asn1(): Buffer;
    issuerDN(): string;
    subjectDN(): string;
    as_asn1(): Buffer;
    as_pem(): string;
  }

  export interface SignerInfoObject {
    sid: { type: string; value: { serialNumber?: unknown; issuer?: unknown } };
    authenticatedAttributes?: unknown[];
    unauthenticatedAttributes?: unknown[];
    encryptedDigest: Buffer;
  }

  export interface SignedMessageInput {
    type: "signedData";
    cert: Certificate;
    data?: Buffer;
    dataHash?: Buffer;
    hash: HashFunction;
    signer: Priv;
    signTime?: number;
  }

  export class Message {
    constructor(input: Buffer | SignedMessageInput);
    readonly type: string;
    readonly info: {
      contentInfo: { contentType: string; content?: Buffer };
      certificate?: CertificateObject[];
      signerInfos: SignerInfoObject[];
    };
    pattrs: { messageDigest: Buffer | null; signingTime: number | null };
    signature: Buffer;
    mhash(hash: HashFunction): Buffer;
    as_asn1(): Buffer;
  }

  export function std_curve(name: string): Curve;

  const jkurwa: {
    Certificate: typeof Certificate;
    /** Its prototype's verify is every DSTU signature check (a test counts where they run). */
    Pub: { prototype: Pub };
    std_curve: typeof std_curve;
    models: { Message: typeof Message };
  };
  export default jkurwa;
}

declare module "asn1.js" {
  /** An asn1.js model: DER in, decoded object out, and back. */
  export interface Asn1Entity<T = unknown> {
    decode(data: Buffer, encoding: "der"): T;
    encode(value: T, encoding: "der"): Buffer;
  }
  /** The builder asn1.js hands a model's body; only what KPI ID's CRL model calls. */
  export interface Asn1Node {
    seq(): Asn1Node;
    seqof(entity: Asn1Entity): Asn1Node;
    obj(...fields: Asn1Node[]): Asn1Node;
    key(name: string): Asn1Node;
    optional(): Asn1Node;
    explicit(tag: number): Asn1Node;
    use(entity: Asn1Entity): Asn1Node;
    int(): Asn1Node;
    any(): Asn1Node;
    bitstr(): Asn1Node;
    objid(values?: Record<string, string>): Asn1Node;
    octstr(): Asn1Node;
  }
  export function define<T = unknown>(name: string, body: (this: Asn1Node) => void): Asn1Entity<T>;
  const asn1: { define: typeof define };
  export default asn1;
}

declare module "jkurwa/lib/spec/rfc3280.js" {
  import type { Asn1Entity } from "asn1.js";
  export const AlgorithmIdentifier: Asn1Entity;
  export const Name: Asn1Entity;
  export const Time: Asn1Entity;
  export const Extensions: Asn1Entity;
  export const CertificateSerialNumber: Asn1Entity;
}

declare module "jkurwa/lib/spec/rfc2560-ocsp.js" {
  import type { Asn1Entity } from "asn1.js";
  /** RFC 6960 (ex 2560) structures as jkurwa defines them with asn1.js. */
  export const CertID: Asn1Entity;
  export const ResponseData: Asn1Entity;
  export const OCSPRequest: Asn1Entity;
  export const OCSPResponse: Asn1Entity;
  export const BasicOCSPResponse: Asn1Entity;
}
