/// <reference path="./dstu-modules.d.ts" />
import gost89 from "gost89";

/** GOST 34.311-95 (the Ukrainian hash, DSTU 4145 default S-box). */
export function gost34311(data: Uint8Array | string): Buffer {
  return gost89.gosthash(typeof data === "string" ? Buffer.from(data, "utf8") : data);
}

/** What Diia is given instead of our request id: base64 of its GOST 34.311 hash. */
export function hashRequestId(requestId: string): string {
  return gost34311(requestId).toString("base64");
}
