import {
  listFederations,
  refreshFederation,
  removeFederation,
  saveFederation,
} from "../../../protocols/saml/federation.ts";
import { XmlRefusedError } from "../../../protocols/saml/xml-guard.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";

/** Reads the federation's aggregate now and says how many SPs it brought. */
async function refresh({ db, readFile, out, config }: CliContext, name: string) {
  let loaded: Awaited<ReturnType<typeof refreshFederation>>;
  try {
    loaded = await refreshFederation(db, name, {
      now: new Date(),
      readFile,
      allowLoopbackHttp: !config.isProduction,
    });
  } catch (error) {
    if (error instanceof XmlRefusedError) throw new CommandFailedError(`federation ${name}: ${error.message}`);
    throw error;
  }
  const validUntil = loaded.validUntil.toISOString();
  out.result(
    { name, serviceProviders: loaded.serviceProviders, validUntil, refused: loaded.refused },
    `Federation ${name}: ${loaded.serviceProviders} service providers, valid until ${validUntil}.` +
      loaded.refused.map((why) => `\nLeft out: ${why}`).join(""),
  );
}

/**
 * `saml federation add`: a federation's signed metadata aggregate (file or URL), its
 * certificate and an optional entity-category filter; loaded at once, then every
 * SAML_FEDERATION_REFRESH_SECONDS by the server.
 */
const federationAdd: CommandHandler = async (context, args) => {
  const values = parseOptions(args, {
    name: { type: "string" },
    metadata: { type: "string" },
    certificate: { type: "string" },
    "entity-category": { type: "string", multiple: true },
  });
  const name = required(values, "name");
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(name)) throw new CommandFailedError("--name: lowercase letters, digits and -");
  const pem = await context.readFile(required(values, "certificate"));
  const certificate = pem.replace(/-----[A-Z ]+-----|\s/g, "");
  if (!/^[A-Za-z0-9+/]+=*$/.test(certificate)) throw new CommandFailedError("--certificate: a PEM certificate file");
  await saveFederation(context.db, {
    name,
    source: required(values, "metadata"),
    certificate,
    entityCategories: values["entity-category"] ?? [],
  });
  await refresh(context, name);
};

const federationRefresh: CommandHandler = async (context, args) => {
  const name = required(parseOptions(args, { name: { type: "string" } }), "name");
  await refresh(context, name);
};

const federationList: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const rows = (await listFederations(db)).map((row) => ({
    name: row.name,
    source: row.source,
    entityCategories: row.entity_categories,
    validUntil: row.valid_until?.toISOString() ?? null,
    refreshedAt: row.refreshed_at?.toISOString() ?? null,
    lastError: row.last_error,
  }));
  out.result(
    rows,
    table(
      rows.map((row) => ({ ...row, entityCategories: row.entityCategories.join(" "), lastError: row.lastError ?? "" })),
    ),
  );
};

const federationRemove: CommandHandler = async ({ db, out }, args) => {
  const name = required(parseOptions(args, { name: { type: "string" } }), "name");
  if (!(await removeFederation(db, name))) throw new CommandFailedError(`no federation ${name}`);
  out.result({ removed: name }, `Federation ${name} and its service providers removed.`);
};

export const samlFederationCommands: Record<string, CommandHandler> = {
  "federation add": federationAdd,
  "federation refresh": federationRefresh,
  "federation list": federationList,
  "federation remove": federationRemove,
};
