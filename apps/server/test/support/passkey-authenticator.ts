import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type { PasskeyAuthenticationResponse, PasskeyRegistrationResponse } from "@kpi-id/contracts";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/** AAGUID of a known authenticator in the shipped list (1Password), to check its name comes back. */
export const KNOWN_AAGUID = "bada5566-a7aa-401f-bd96-45619a55120d";

const flags = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attested: 0x40 };

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const b64 = (data: Uint8Array) => Buffer.from(data).toString("base64url");

interface KeyPair {
  privateKey: KeyObject;
  x: Buffer;
  y: Buffer;
}

function newKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  return { privateKey, x: Buffer.from(jwk.x ?? "", "base64url"), y: Buffer.from(jwk.y ?? "", "base64url") };
}

export interface SoftAuthenticatorOptions {
  origin: string;
  rpId: string;
  aaguid?: string;
  /** A synced passkey (backup eligible and backed up). */
  synced?: boolean;
}

/**
 * A software passkey authenticator (ES256, attestation `none`), answering as a browser would hand
 * `@simplewebauthn/browser`'s JSON to the server. `clone()` copies its key with a counter of its own.
 */
export function softAuthenticator(options: SoftAuthenticatorOptions, shared?: { key: KeyPair; id: Buffer }) {
  const key = shared?.key ?? newKeyPair();
  const credentialId = shared?.id ?? randomBytes(16);
  let signCount = 0;
  let userHandle: string | undefined;
  const stateFlags = options.synced ? flags.backupEligible | flags.backedUp : 0;

  const publicKeyCose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(key.x)],
      [-3, new Uint8Array(key.y)],
    ]),
  );

  function authenticatorData(extra: number, attested?: Buffer) {
    signCount += 1;
    const header = Buffer.alloc(37);
    sha256(options.rpId).copy(header, 0);
    header[32] = flags.userPresent | flags.userVerified | stateFlags | extra;
    header.writeUInt32BE(signCount, 33);
    return attested ? Buffer.concat([header, attested]) : header;
  }

  function clientData(type: string, challenge: string, origin = options.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  return {
    credentialId: b64(credentialId),
    get signCount() {
      return signCount;
    },
    set signCount(value: number) {
      signCount = value;
    },
    /** The public key as COSE (what the server stores): the bench's seed stores passkeys without a ceremony. */
    publicKeyCose,
    register(creation: { challenge: string; user?: { id?: string } }): PasskeyRegistrationResponse {
      userHandle = creation.user?.id;
      const cose = publicKeyCose;
      const aaguid = Buffer.from((options.aaguid ?? KNOWN_AAGUID).replaceAll("-", ""), "hex");
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([aaguid, length, credentialId, Buffer.from(cose)]);
      const authData = authenticatorData(flags.attested, attested);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, never> | Uint8Array>([
          ["fmt", "none"],
          ["attStmt", new Map<string, never>()],
          ["authData", new Uint8Array(authData)],
        ]),
      );
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64(clientData("webauthn.create", creation.challenge)),
          attestationObject: b64(attestationObject),
          transports: ["internal"],
        },
        authenticatorAttachment: "platform",
      };
    },
    authenticate(request: { challenge: string }, { origin }: { origin?: string } = {}): PasskeyAuthenticationResponse {
      const authData = authenticatorData(0);
      const clientDataJSON = clientData("webauthn.get", request.challenge, origin);
      const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), key.privateKey);
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64(clientDataJSON),
          authenticatorData: b64(authData),
          signature: b64(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        authenticatorAttachment: "platform",
      };
    },
    /** A second authenticator holding the same key (a cloned one), its counter starting at `signCount`. */
    clone(startAt: number) {
      const copy = softAuthenticator(options, { key, id: credentialId });
      copy.signCount = startAt;
      copy.adoptUserHandle(userHandle);
      return copy;
    },
    adoptUserHandle(handle: string | undefined) {
      userHandle = handle;
    },
  };
}

export type SoftAuthenticator = ReturnType<typeof softAuthenticator>;
