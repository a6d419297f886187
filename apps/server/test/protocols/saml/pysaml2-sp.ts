import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestKeyPair } from "./keys.ts";

/** Debian's python3-pysaml2 (the SP library SATOSA runs on), driven through pysaml2-sp.py. */
const script = fileURLToPath(new URL("./pysaml2-sp.py", import.meta.url));
// Debian's interpreter, which has python3-pysaml2, whatever python3 comes first on the PATH.
const python = "/usr/bin/python3";

export interface Pysaml2Sp {
  entityId: string;
  acsUrl: string;
  keys: TestKeyPair;
  /** KPI ID's metadata, as the SP's operator downloads it. */
  idpMetadata: string;
  wantResponseSigned: boolean;
}

function run<T>(sp: Pysaml2Sp, command: Record<string, unknown>): T {
  const input = JSON.stringify({
    entityId: sp.entityId,
    acsUrl: sp.acsUrl,
    keyFile: sp.keys.keyFile,
    certFile: sp.keys.certFile,
    idpMetadata: sp.idpMetadata,
    wantResponseSigned: sp.wantResponseSigned,
    ...command,
  });
  return JSON.parse(execFileSync(python, [script], { input, encoding: "utf8" })) as T;
}

/** The SP's metadata as pysaml2 writes it. */
export const pysaml2Metadata = (sp: Pysaml2Sp) => run<{ metadata: string }>(sp, { step: "metadata" }).metadata;

/** pysaml2's AuthnRequest by HTTP-Redirect: the URL at KPI ID and the request's ID. */
export const pysaml2Request = (sp: Pysaml2Sp) => run<{ url: string; id: string }>(sp, { step: "request" });

/** What pysaml2 makes of KPI ID's answer: the attributes, or its reason for refusing it. */
export const pysaml2Accepts = (sp: Pysaml2Sp, response: string, requestId: string) =>
  run<{ attributes?: Record<string, string[]>; error?: string }>(sp, { step: "response", response, requestId });
