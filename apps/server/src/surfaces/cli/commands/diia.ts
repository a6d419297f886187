import { countRecentDiiaRequests } from "../../../model/diia/requests.ts";
import type { DiiaConfig } from "../../../platform/config/index.ts";
import { DiiaApiError, DiiaClient } from "../../../sign-in/diia/client.ts";
import { parseTrustAnchors, TrustAnchorError } from "../../../sign-in/diia/crypto/trust-anchors.ts";
import { parseOptions } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";
import { checkCallback } from "./diia-check-callback.ts";

function requireDiia(context: CliContext): DiiaConfig {
  const diia = context.config.diia;
  if (!diia) throw new CommandFailedError("Diia is not configured: set DIIA_BASE_URL and DIIA_ACQUIRER_TOKEN");
  return diia;
}

async function callDiia<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DiiaApiError) throw new CommandFailedError(error.message);
    throw error;
  }
}

/** `diia setup`: the branch (scope diiaId: auth) and its offer, once; prints the settings to add. */
const setup: CommandHandler = async (context, args) => {
  const values = parseOptions(args, {
    branch: { type: "string" },
    name: { type: "string" },
    "full-name": { type: "string" },
    address: { type: "string" },
    region: { type: "string" },
    district: { type: "string" },
    location: { type: "string" },
    street: { type: "string" },
    house: { type: "string" },
    email: { type: "string" },
    "offer-name": { type: "string" },
  });
  const diia = requireDiia(context);
  const client = new DiiaClient({ config: diia });
  // Options override the DIIA_BRANCH_* settings for this one call.
  const address = {
    region: values.region ?? diia.branchAddress.region,
    district: values.district ?? diia.branchAddress.district,
    location: values.location ?? diia.branchAddress.location,
    street: values.street ?? diia.branchAddress.street,
    house: values.house ?? diia.branchAddress.house,
  };
  const branchId =
    values.branch ??
    (await callDiia(() =>
      client.createBranch({
        name: values.name ?? "KPI ID",
        customFullName: values["full-name"] ?? "КПІ ім. Ігоря Сікорського — KPI ID",
        customFullAddress: values.address ?? `${address.location}, ${address.street}, ${address.house}`,
        email: values.email ?? context.config.support.email,
        ...address,
      }),
    ));
  const offerId = await callDiia(() => client.createOffer(branchId, values["offer-name"] ?? "Вхід до KPI ID"));
  context.out.result(
    { branchId, offerId },
    `Diia branch and offer are ready. Add to the configuration:\nDIIA_BRANCH_ID=${branchId}\nDIIA_OFFER_ID=${offerId}`,
  );
};

function describeAnchors(value: string | undefined): string {
  if (!value) return "not set";
  try {
    return parseTrustAnchors(value)
      .map(
        (anchor) =>
          `${anchor.subject.commonName ?? anchor.subjectDN()} (until ${new Date(anchor.valid.to).toISOString().slice(0, 10)})`,
      )
      .join("; ");
  } catch (error) {
    if (error instanceof TrustAnchorError) return `unreadable: ${error.message}`;
    throw error;
  }
}

function recentRequests(context: CliContext) {
  return countRecentDiiaRequests(context.db, new Date(Date.now() - 24 * 3600 * 1000));
}

/**
 * Diia sets the callback address and grants the `diiaId: auth` scope on the acquirer's account itself:
 * no API call sets them or shows them, so status can only say what to ask Diia for.
 */
function setByDiiaNote(publicUrl: string): string {
  return (
    `callback address ${publicUrl}/api/diia/callback and scope diiaId: auth are set by Diia on the acquirer ` +
    "account (ask Diia's partner support; the API can neither set nor show them)"
  );
}

/** `diia status`: can we reach Diia, do the branch and offer exist, which CAs we trust, recent requests. */
const status: CommandHandler = async (context, args) => {
  parseOptions(args, {});
  const diia = requireDiia(context);
  const client = new DiiaClient({ config: diia });
  const problems: string[] = [];
  const sessionToken = await client.sessionToken().then(
    () => "ok",
    (error: unknown) => {
      problems.push("session token");
      return error instanceof Error ? error.message : String(error);
    },
  );
  let branch = "DIIA_BRANCH_ID not set";
  let offer = "DIIA_OFFER_ID not set";
  if (diia.branchId && sessionToken === "ok") {
    branch = await client.getBranch(diia.branchId).then(
      (found) => `${String(found.name ?? diia.branchId)} (scopes ${JSON.stringify(found.scopes ?? {})})`,
      (error: unknown) => `not found: ${error instanceof Error ? error.message : String(error)}`,
    );
    const offers = await client.listOffers(diia.branchId).catch(() => []);
    const configured = offers.find((each) => each._id === diia.offerId);
    if (diia.offerId) offer = configured ? `${configured.name ?? configured._id}` : "not found in the branch";
  }
  if (!branch.includes("scopes")) problems.push("branch");
  if (!diia.offerId || offer.startsWith("not")) problems.push("offer");
  const trustAnchors = describeAnchors(diia.trustAnchors);
  if (trustAnchors === "not set" || trustAnchors.startsWith("unreadable")) problems.push("trust anchors");
  const requests = await recentRequests(context);
  const report = {
    baseUrl: diia.baseUrl,
    sessionToken,
    branch,
    offer,
    trustAnchors,
    setByDiia: setByDiiaNote(context.config.publicUrl),
    requestsLast24h: requests,
  };
  context.out.result(
    { ...report, ready: problems.length === 0 },
    `${table(Object.entries(report).map(([setting, value]) => ({ setting, value: typeof value === "string" ? value : JSON.stringify(value) })))}\n` +
      (problems.length === 0 ? "Sign-in with Diia is ready." : `Not ready: ${problems.join(", ")}.`),
  );
  if (problems.length > 0) throw new CommandFailedError(`Diia is not ready: ${problems.join(", ")}`);
};

export const diiaCommands: Record<string, CommandHandler> = { setup, status, "check-callback": checkCallback };
