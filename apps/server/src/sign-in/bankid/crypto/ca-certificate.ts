/// <reference path="./bankid-modules.d.ts" />
import jkurwa, { type Certificate } from "jkurwa";
import * as rfc3280 from "jkurwa/lib/spec/rfc3280.js";

// Apart from ca-list.ts (which reads configuration): the envelope's worker thread reads its CAs with it too.

/**
 * A certificate read without unpacking its public key: unpacking is a point decompression on the curve, the
 * bulk of reading a CA (issue 80: the published list's 771 took about 34 s at every start). jkurwa unpacks the
 * key, once, when a chain is checked against this CA (issuedBy), so only the CAs a chain meets pay for it; a key
 * that cannot be unpacked then fails that check, as it would have failed the start.
 */
export function caCertificate(der: Buffer): Certificate {
  // As from_asn1 does, the bytes read are kept (`_raw`), so as_asn1() returns them rather than an encoding of its own.
  const decoded = Object.assign(rfc3280.Certificate.decode(der, "der"), { _raw: der });
  return new jkurwa.Certificate(decoded, true);
}
