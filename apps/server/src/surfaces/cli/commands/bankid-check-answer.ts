import type { BankIdConfig } from "../../../platform/config/index.ts";
import { ConfigError } from "../../../platform/config/index.ts";
import { readCaFiles } from "../../../sign-in/bankid/crypto/ca-list.ts";
import { traceBankIdEnvelope } from "../../../sign-in/bankid/crypto/envelope-reader.ts";
import { readBankPerson } from "../../../sign-in/bankid/person-data.ts";
import { loadBankIdKeys, readCertificate } from "../../../sign-in/bankid/runtime.ts";
import { parseOptions } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

// `bankid check-answer FILE`: a captured answer of NBU's /v1/bank/resource/client (its JSON, or only the
// base64 customerCrypto) through the reader sign-in uses, step by step, so the first connection to the
// test node is diagnosed from one file. The person's data is never printed: only what matching would find.

const options = {
  key: { type: "string" },
  "key-password-stdin": { type: "boolean" },
  certificate: { type: "string" },
  trust: { type: "string", multiple: true },
  originator: { type: "string" },
  "member-id": { type: "string" },
  at: { type: "string" },
} as const;

interface CapturedAnswer {
  customerCrypto: string;
  cert?: string;
  memberId?: string;
}

function readAnswer(text: string): CapturedAnswer {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return { customerCrypto: trimmed.replace(/\s+/g, "") };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(trimmed) as Record<string, unknown>;
  } catch {
    throw new CommandFailedError("the file is neither the answer's JSON nor a base64 customerCrypto");
  }
  const field = (name: string) => {
    const value = body[name];
    return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
  };
  const customerCrypto = field("customerCrypto");
  if (!customerCrypto) throw new CommandFailedError("the answer has no customerCrypto");
  return { customerCrypto, cert: field("cert"), memberId: field("memberId") };
}

/** The configured BankID settings, with the files given on the command line in their place. */
async function settingsFor(context: CliContext, values: ReturnType<typeof parseCheckOptions>): Promise<BankIdConfig> {
  const configured = context.config.bankId;
  const key: BankIdConfig["key"] | undefined = values.key
    ? values["key-password-stdin"]
      ? { containerPath: values.key, password: await context.readStdin() }
      : { pem: values.key }
    : configured?.key;
  const certificate = values.certificate ?? configured?.certificate;
  if (!key || !certificate || !(values.trust ?? configured?.trustAnchors))
    throw new UsageError("give --key, --certificate and --trust, or configure BankID (docs/bankid.md)");
  return {
    baseUrl: configured?.baseUrl ?? "http://127.0.0.1:9",
    clientId: configured?.clientId ?? "check-answer",
    clientSecret: configured?.clientSecret ?? "check-answer",
    key,
    certificate,
    // --trust files replace it (checkAnswer reads them with the same reader).
    trustAnchors: configured?.trustAnchors ?? "",
    intermediateCas: values.trust ? undefined : configured?.intermediateCas,
    // Revocation needs the CRLs fetched: a captured answer is checked for everything else.
    crls: [],
    crlGraceSeconds: 0,
    version: configured?.version ?? "v1",
    bankPicker: false,
    sendRedirectUri: true,
    banksCacheSeconds: 0,
  };
}

const parseCheckOptions = (args: string[]) => parseOptions(args, options);

export const checkAnswer: CommandHandler = async (context, args) => {
  const [file, ...rest] = args;
  if (!file || file.startsWith("--")) throw new UsageError("bankid check-answer FILE: the captured answer");
  const values = parseCheckOptions(rest);
  const answer = readAnswer(await context.readFile(file));
  const at = values.at ? new Date(values.at) : new Date();
  if (Number.isNaN(at.getTime())) throw new UsageError("--at: not a date");
  let keys: ReturnType<typeof loadBankIdKeys>;
  try {
    const settings = await settingsFor(context, values);
    // Each --trust file as the server reads BANKID_TRUST_ANCHORS: PEM, DER, or the .p7b as published.
    const trustAnchors = values.trust ? readCaFiles("--trust", values.trust).certificates : undefined;
    keys = loadBankIdKeys(settings, { info: () => {}, error: () => {} }, { trustAnchors });
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandFailedError(error.message);
    throw error;
  }
  const originator = values.originator
    ? readCertificate("--originator", values.originator).as_asn1().toString("base64")
    : answer.cert;
  const memberId = values["member-id"] ?? answer.memberId;
  const { result, steps } = traceBankIdEnvelope(answer.customerCrypto, keys.ours, keys.trust, at, {
    certificate: originator,
    memberId,
  });
  const person = result.ok ? readBankPerson(result.data) : undefined;
  const found = person
    ? `${person.taxId ? "a tax id with a valid check digit" : "no usable tax id"}, ${person.documents.length} identity document(s)`
    : undefined;
  const rows = [
    {
      step: "answer",
      ok: "yes",
      detail: `memberId ${memberId ?? "absent"}, cert ${originator ? "present" : "absent"}`,
    },
    ...steps.map(({ step, ok, detail }) => ({ step, ok: ok ? "yes" : "NO", detail })),
    ...(found ? [{ step: "person", ok: "yes", detail: found }] : []),
  ];
  context.out.result(
    { opened: result.ok, reason: result.ok ? undefined : result.reason, steps, person: found },
    `${table(rows)}\n${result.ok ? "The answer opened." : `The answer did not open: ${result.reason}.`}`,
  );
  if (!result.ok) throw new CommandFailedError(`the answer did not open: ${result.reason}`);
};
