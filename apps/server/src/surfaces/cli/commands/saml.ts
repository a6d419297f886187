import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import {
  listServiceProviders,
  removeServiceProvider,
  upsertServiceProvider,
} from "../../../model/saml/service-providers.ts";
import { attributeNames } from "../../../protocols/saml/attributes.ts";
import { fetchXml } from "../../../protocols/saml/fetch-xml.ts";
import {
  addRolloverKey,
  ensureSamlKey,
  loadSamlKeys,
  promoteSamlKey,
  retireSamlKey,
} from "../../../protocols/saml/keys.ts";
import { maxSpMetadataBytes, parseSpMetadata } from "../../../protocols/saml/sp-metadata.ts";
import { XmlRefusedError } from "../../../protocols/saml/xml-guard.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";
import { samlFederationCommands } from "./saml-federation.ts";

function checkAttributes(names: string[]) {
  const unknown = names.filter((name) => !attributeNames.includes(name));
  if (unknown.length)
    throw new CommandFailedError(`unknown attribute ${unknown.join(", ")}; known: ${attributeNames.join(", ")}`);
  return names;
}

async function applicationIdOf(db: CliContext["db"], reference: string | undefined) {
  if (reference === undefined) return undefined;
  const application = await findApplicationByIdOrName(db, reference);
  if (!application) throw new CommandFailedError(`no application ${reference}`);
  return application.id;
}

const spOptions = {
  metadata: { type: "string" },
  attribute: { type: "string", multiple: true },
  app: { type: "string" },
  "first-party": { type: "boolean" },
  encrypt: { type: "boolean" },
  "sign-response": { type: "boolean" },
} as const;

/** `saml sp add --metadata FILE|URL`: registers (or refreshes) an SP from its metadata, with its release policy. */
const spAdd: CommandHandler = async ({ db, out, readFile, config }, args) => {
  const values = parseOptions(args, spOptions, { allowNegative: true });
  const source = required(values, "metadata");
  let parsed: Awaited<ReturnType<typeof parseSpMetadata>>;
  try {
    parsed = await parseSpMetadata(await fetchXml(source, maxSpMetadataBytes, readFile), {
      allowLoopbackHttp: !config.isProduction,
    });
  } catch (error) {
    if (error instanceof XmlRefusedError) throw new CommandFailedError(`${source}: ${error.message}`);
    throw error;
  }
  const row = await upsertServiceProvider(
    db,
    parsed,
    "manual",
    {
      releasedAttributes: values.attribute ? checkAttributes(values.attribute) : undefined,
      applicationId: await applicationIdOf(db, values.app),
      firstParty: values["first-party"],
      encryptAssertions: values.encrypt,
      signResponse: values["sign-response"],
    },
    new Date(),
  );
  out.result(
    describe(row),
    `Service provider ${row.entity_id} (${row.display_name}) registered.\n` +
      `Releases: ${row.released_attributes.join(", ") || "(nothing besides its entity-category bundles)"}`,
  );
};

function describe(row: Awaited<ReturnType<typeof listServiceProviders>>[number]) {
  return {
    entityId: row.entity_id,
    displayName: row.display_name,
    source: row.source,
    attributes: row.released_attributes,
    entityCategories: row.entity_categories,
    applicationId: row.application_id,
    firstParty: row.first_party,
    encryptAssertions: row.encrypt_assertions,
    signResponse: row.sign_response,
    validUntil: row.valid_until?.toISOString() ?? null,
  };
}

const spList: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const rows = (await listServiceProviders(db)).map(describe);
  out.result(
    rows,
    table(rows.map((row) => ({ entityId: row.entityId, source: row.source, attributes: row.attributes.join(" ") }))),
  );
};

const spRemove: CommandHandler = async ({ db, out }, args) => {
  const entityId = required(parseOptions(args, { "entity-id": { type: "string" } }), "entity-id");
  const result = await removeServiceProvider(db, entityId);
  if (result.numDeletedRows === 0n) throw new CommandFailedError(`no service provider ${entityId}`);
  out.result({ removed: entityId }, `Removed ${entityId}.`);
};

/** `saml keys rollover`: a new key, published now, signing after --activate-in-hours (default 48). */
const keysRollover: CommandHandler = async ({ db, out, config }, args) => {
  const values = parseOptions(args, { "activate-in-hours": { type: "string" } });
  const hours = Number(values["activate-in-hours"] ?? "48");
  if (!Number.isFinite(hours) || hours < 0) throw new CommandFailedError("--activate-in-hours: a number of hours");
  const activatesAt = new Date(Date.now() + hours * 3_600_000);
  const commonName = new URL(config.publicUrl).hostname;
  // Before any server start there is no key yet: the current one is made first, so the new one rolls over it.
  await ensureSamlKey(db, config.sessionSecret, commonName);
  const kid = await addRolloverKey(db, config.sessionSecret, commonName, activatesAt);
  out.result(
    { kid, activatesAt: activatesAt.toISOString() },
    `New SAML signing key ${kid}, in the metadata now, signing from ${activatesAt.toISOString()}.\n` +
      "Remove the old one (saml keys remove) once every SP and federation has the new metadata.",
  );
};

/** `saml keys promote`: the next key signs now, not at its set time (SPs have the new metadata sooner). */
const keysPromote: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const kid = await promoteSamlKey(db);
  if (!kid) throw new CommandFailedError("no next key: add one with saml keys rollover");
  out.result(
    { promoted: kid },
    `${kid} signs now (running servers switch within a minute).\n` +
      "The previous key stays in the metadata until saml keys remove.",
  );
};

const keysList: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const { signing, published } = await loadSamlKeys(db, undefined);
  const rows = published.map((key) => ({
    kid: key.kid,
    activates: key.activatesAt.toISOString(),
    signing: key.kid === signing?.kid,
    state: key.kid === signing?.kid ? "current" : key.activatesAt > new Date() ? "next" : "previous",
  }));
  out.result(rows, table(rows));
};

const keysRemove: CommandHandler = async ({ db, out }, args) => {
  const kid = required(parseOptions(args, { kid: { type: "string" } }), "kid");
  const result = await retireSamlKey(db, kid);
  if (result === "signing") throw new CommandFailedError(`${kid} is the signing key; roll over first`);
  if (result === "unknown") throw new CommandFailedError(`no published key ${kid}`);
  out.result({ removed: kid }, `Key ${kid} is out of the metadata.`);
};

export const samlCommands: Record<string, CommandHandler> = {
  "sp add": spAdd,
  "sp list": spList,
  "sp remove": spRemove,
  "keys rollover": keysRollover,
  "keys promote": keysPromote,
  "keys list": keysList,
  "keys remove": keysRemove,
  ...samlFederationCommands,
};
