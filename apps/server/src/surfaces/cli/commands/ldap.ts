import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import {
  type ClientSubtree,
  clientSubtrees,
  listLdapClients,
  registerLdapClient,
  removeLdapClient,
} from "../../../model/ldap/clients.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { synchroniseDirectory } from "../../../protocols/ldap/directory-sync.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((each) => each.trim())
    .filter(Boolean);

function ldapiPathOf(context: CliContext): string {
  const path = context.config.ldap.ldapiPath;
  if (!path) throw new CommandFailedError("LDAP_LDAPI_PATH is not set: KPI ID runs no slapd");
  return path;
}

/** `ldap sync`: the whole directory made KPI ID's truth now (idempotent); what it changed. */
const sync: CommandHandler = async (context) => {
  const { baseDn, scope } = context.config.ldap;
  const report = await synchroniseDirectory(context.db, { ldapiPath: ldapiPathOf(context), baseDn, scope });
  context.out.result(
    report,
    `added ${report.added}, changed ${report.changed}, renamed ${report.renamed}, removed ${report.removed}`,
  );
};

/**
 * `ldap client add --name N --title T --attributes a,b [--subtree S] [--application APP] [--addresses ip,…]
 * [--allow-kpi-password]`.
 */
const add: CommandHandler = async (context, args) => {
  const options = parseOptions(args, {
    name: { type: "string" },
    title: { type: "string" },
    attributes: { type: "string" },
    subtree: { type: "string" },
    application: { type: "string" },
    addresses: { type: "string" },
    "allow-kpi-password": { type: "boolean" },
  });
  const subtree = options.subtree ?? "people";
  if (!(clientSubtrees as readonly string[]).includes(subtree)) {
    throw new CommandFailedError(`--subtree must be one of ${clientSubtrees.join(", ")}`);
  }
  let applicationId: string | null = null;
  if (options.application) {
    const application = await findApplicationByIdOrName(context.db, options.application);
    if (!application) throw new CommandFailedError(`no application '${options.application}'`);
    applicationId = application.id;
  }
  const { client, secret } = await registerLdapClient(
    context.db,
    {
      name: required(options, "name"),
      title: required(options, "title"),
      applicationId,
      subtree: subtree as ClientSubtree,
      attributes: list(required(options, "attributes")),
      addresses: list(options.addresses),
      kpiPasswordAllowed: options["allow-kpi-password"] === true,
    },
    new Date(),
  );
  await recordAuditEvent(context.db, {
    type: "ldap_client_registered",
    result: "success",
    applicationId,
    details: { name: client.name, kpiPasswordAllowed: client.kpiPasswordAllowed },
  });
  const bindDn = `cn=${client.name},ou=clients,${context.config.ldap.baseDn}`;
  context.out.result({ ...client, bindDn, secret }, `bind DN: ${bindDn}\nsecret (shown once): ${secret}`);
};

/** `ldap client list`: the registered clients (never a secret). */
const listClients: CommandHandler = async (context) => {
  const clients = await listLdapClients(context.db);
  const rows = clients.map((each) => ({
    name: each.name,
    title: each.title,
    subtree: each.subtree,
    attributes: each.attributes.join(","),
    application: each.applicationId ?? "(everyone)",
    addresses: each.addresses.join(","),
    "kpi password": each.kpiPasswordAllowed ? "allowed" : "no",
  }));
  context.out.result({ clients }, table(rows));
};

/** `ldap client remove --name N`. */
const remove: CommandHandler = async (context, args) => {
  const name = required(parseOptions(args, { name: { type: "string" } }), "name");
  await removeLdapClient(context.db, name);
  await recordAuditEvent(context.db, { type: "ldap_client_removed", result: "success", details: { name } });
  context.out.result({ removed: name }, `removed ${name}`);
};

export const ldapCommands: Record<string, CommandHandler> = {
  sync,
  "client add": add,
  "client list": listClients,
  "client remove": remove,
};
