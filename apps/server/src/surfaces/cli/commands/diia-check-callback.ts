import type { DiiaConfig } from "../../../platform/config/index.ts";
import { ConfigError } from "../../../platform/config/index.ts";
import { MalformedMultipartError, parseMultipart } from "../../../sign-in/diia/multipart.ts";
import { parseOptions } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

// `diia check-callback FILE`: a captured Diia callback (the multipart body, the encodeData part's base64, or
// its JSON) through the reader sign-in uses, step by step, so the first callback from Diia's test environment
// is diagnosed from one file. The person's tax number and name are never printed: only whether they were read.

const options = {
  trust: { type: "string", multiple: true },
  intermediate: { type: "string", multiple: true },
  certificate: { type: "string", multiple: true },
  crl: { type: "string", multiple: true },
  ocsp: { type: "string", multiple: true },
  "request-id": { type: "string" },
  at: { type: "string" },
} as const;

interface CapturedCallback {
  form: string;
  hashedRequestId: string;
  signature: Buffer;
}

function fromJson(text: string, form: string): CapturedCallback {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CommandFailedError(`${form}: not JSON`);
  }
  const { requestId, signature } = (body ?? {}) as Record<string, unknown>;
  if (typeof requestId !== "string" || typeof signature !== "string")
    throw new CommandFailedError(`${form}: no requestId and signature`);
  return { form, hashedRequestId: requestId, signature: Buffer.from(signature, "base64") };
}

/** The multipart body (its boundary read from its first line), the encodeData base64, or its JSON. */
export function readCapturedCallback(text: string): CapturedCallback {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return fromJson(trimmed, "encodeData JSON");
  if (trimmed.startsWith("--")) {
    const boundary = trimmed.slice(2, trimmed.search(/\r?\n/));
    const body = Buffer.from(text.replace(/\r?\n/g, "\r\n").replace(/^\s+/, ""), "utf8");
    let part: ReturnType<typeof parseMultipart>[number] | undefined;
    try {
      part = parseMultipart(body, `multipart/form-data; boundary=${boundary}`).find(
        (each) => each.name === "encodeData",
      );
    } catch (error) {
      if (error instanceof MalformedMultipartError) throw new CommandFailedError(`multipart body: ${error.message}`);
      throw error;
    }
    if (!part) throw new CommandFailedError("multipart body: no encodeData part");
    return fromJson(Buffer.from(part.body.toString("ascii").trim(), "base64").toString("utf8"), "multipart body");
  }
  return fromJson(Buffer.from(trimmed.replace(/\s+/g, ""), "base64").toString("utf8"), "encodeData base64");
}

const parseCheckOptions = (args: string[]) => parseOptions(args, options);

async function joined(context: CliContext, paths: string[] | undefined): Promise<string | undefined> {
  return paths ? (await Promise.all(paths.map((path) => context.readFile(path)))).join("\n") : undefined;
}

/** The configured Diia trust, with the files given on the command line in their place. */
async function trustFor(
  context: CliContext,
  values: ReturnType<typeof parseCheckOptions>,
): Promise<
  Pick<DiiaConfig, "trustAnchors" | "intermediateCas" | "signerCertificates" | "crls" | "crlGraceSeconds" | "ocsp">
> {
  const configured = context.config.diia;
  const trustAnchors = (await joined(context, values.trust)) ?? configured?.trustAnchors;
  if (!trustAnchors) throw new UsageError("give --trust (the CAs' PEM), or configure DIIA_TRUST_ANCHORS");
  return {
    trustAnchors,
    intermediateCas:
      (await joined(context, values.intermediate)) ?? (values.trust ? undefined : configured?.intermediateCas),
    signerCertificates: (await joined(context, values.certificate)) ?? configured?.signerCertificates,
    crls: values.crl ?? (values.trust ? [] : (configured?.crls ?? [])),
    ocsp: values.ocsp ?? (values.trust ? [] : (configured?.ocsp ?? [])),
    crlGraceSeconds: configured?.crlGraceSeconds ?? 86400,
  };
}

export const checkCallback: CommandHandler = async (context, args) => {
  const [file, ...rest] = args;
  if (!file || file.startsWith("--")) throw new UsageError("diia check-callback FILE: the captured callback");
  const values = parseCheckOptions(rest);
  const at = values.at ? new Date(values.at) : new Date();
  if (Number.isNaN(at.getTime())) throw new UsageError("--at: not a date");
  const callback = readCapturedCallback(await context.readFile(file));
  const trust = await trustFor(context, values);
  const [{ crlStoreFor, loadCertificates }, { JkurwaSignatureVerifier }, { OcspStore }, { revocationChecker }] =
    await Promise.all([
      import("../../../sign-in/diia/crypto/configured-cas.ts"),
      import("../../../sign-in/diia/crypto/jkurwa-verifier.ts"),
      import("../../../sign-in/diia/crypto/ocsp-store.ts"),
      import("../../../sign-in/diia/crypto/revocation.ts"),
    ]);
  const silent = { info: () => {}, error: () => {} };
  let verifier: InstanceType<typeof JkurwaSignatureVerifier>;
  let ocsp: InstanceType<typeof OcspStore> | undefined;
  try {
    const anchors = loadCertificates("DIIA_TRUST_ANCHORS", trust.trustAnchors);
    const intermediates = loadCertificates("DIIA_INTERMEDIATE_CAS", trust.intermediateCas);
    const signers = loadCertificates("DIIA_SIGNER_CERTIFICATES", trust.signerCertificates);
    const authorities = [...anchors, ...intermediates];
    const crls = crlStoreFor(trust, authorities, silent);
    await crls?.refresh(at);
    if (trust.ocsp.length > 0)
      ocsp = new OcspStore({ responders: trust.ocsp, authorities, graceSeconds: trust.crlGraceSeconds, log: silent });
    verifier = new JkurwaSignatureVerifier(anchors, intermediates, revocationChecker(crls, ocsp), signers);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandFailedError(error.message);
    throw error;
  }
  const requestId = values["request-id"];
  const input = {
    signature: callback.signature,
    requestId: requestId ?? "",
    requestDigest: requestId ? undefined : Buffer.from(callback.hashedRequestId, "base64"),
    now: at,
  };
  if (ocsp) {
    // A first pass names the signer to the OCSP store; its answer is fetched before the pass that is shown.
    verifier.trace(input);
    await ocsp.refresh(at);
  }
  const { result, steps } = verifier.trace(input);
  const rows = [
    {
      step: "callback",
      ok: "yes",
      detail: `${callback.form}; digest checked against ${requestId ? "--request-id" : "the requestId hash it names"}`,
    },
    ...steps.map(({ step, ok, detail }) => ({ step, ok: ok ? "yes" : "NO", detail })),
  ];
  const reason = result.ok ? undefined : result.reason;
  context.out.result(
    { opened: result.ok, reason, steps },
    `${table(rows)}\n${result.ok ? "The callback opened: a tax number and a name were read." : `The callback did not open: ${reason}.`}`,
  );
  if (!result.ok) throw new CommandFailedError(`the callback did not open: ${reason}`);
};
