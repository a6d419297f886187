import { type CasAttributeName, type CasAttributeRenames, casAttributeNames } from "@kpi-id/contracts";
import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import { casRenameProblem, isCasAttributeName, mailWithoutConsent } from "../../../model/cas/release-policy.ts";
import {
  type CasService,
  CasServiceTakenError,
  casServiceProblem,
  casServicesOf,
  removeCasService,
  setCasService,
} from "../../../model/cas/services.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

function attributesOption(value: string | undefined): CasAttributeName[] {
  if (value === undefined) return [];
  const words = value
    .split(",")
    .map((word) => word.trim())
    .filter((word) => word !== "");
  const unknown = words.filter((word) => !isCasAttributeName(word));
  if (unknown.length > 0) {
    throw new UsageError(`--attributes: unknown ${unknown.join(", ")} (known: ${casAttributeNames.join(", ")})`);
  }
  return words.filter(isCasAttributeName);
}

/** `--rename mail=email --rename uid=username`: each attribute (KPI ID's name) and the name it is released as. */
function renamesOption(values: string[] | undefined): CasAttributeRenames {
  const renames: CasAttributeRenames = {};
  for (const value of values ?? []) {
    const [attribute = "", name, ...rest] = value.split("=").map((word) => word.trim());
    if (name === undefined || rest.length > 0) throw new UsageError(`--rename ${value}: write it as ATTRIBUTE=NAME`);
    if (!isCasAttributeName(attribute)) {
      throw new UsageError(`--rename ${value}: unknown ${attribute} (known: ${casAttributeNames.join(", ")})`);
    }
    if (renames[attribute] !== undefined) throw new UsageError(`--rename: ${attribute} is renamed twice`);
    renames[attribute] = name;
  }
  return renames;
}

const releasedName = (service: CasService, attribute: CasAttributeName) => {
  const name = service.renames[attribute];
  return name === undefined ? attribute : `${attribute}=${name}`;
};

function describe(service: CasService): string {
  const flags = [service.singleLogout && "single logout", service.proxy && "proxy"].filter(Boolean).join(", ");
  const attributes = service.attributes.map((attribute) => releasedName(service, attribute)).join(", ");
  return `  ${service.match === "prefix" ? "prefix" : "exact "} ${service.url}${flags ? ` (${flags})` : ""}\n    attributes: ${attributes}`;
}

/**
 * `app cas --app ID|NAME [--service URL [--prefix] [--attributes a,b] [--rename a=name ...] [--single-logout]
 * [--proxy]] [--remove URL]`: the application's CAS services (docs/cas.md). Without --service or --remove, lists them.
 */
export const appCas: CommandHandler = async ({ db, out, config }, args) => {
  const values = parseOptions(args, {
    app: { type: "string" },
    service: { type: "string" },
    prefix: { type: "boolean" },
    attributes: { type: "string" },
    rename: { type: "string", multiple: true },
    "single-logout": { type: "boolean" },
    proxy: { type: "boolean" },
    remove: { type: "string" },
  });
  const application = await findApplicationByIdOrName(db, required(values, "app"));
  if (!application) throw new CommandFailedError(`no application '${values.app}'`);
  if (values.service !== undefined) {
    const match = values.prefix ? "prefix" : "exact";
    const problem = casServiceProblem(values.service, match);
    if (problem)
      throw new UsageError(
        `--service: ${problem} (an absolute https URL as the browser writes it; a prefix ends in "/")`,
      );
    const attributes = attributesOption(values.attributes);
    const renames = renamesOption(values.rename);
    const renameProblem = casRenameProblem(attributes, renames);
    if (renameProblem) {
      const { attribute, problem } = renameProblem;
      throw new UsageError(`--rename ${attribute}=${renames[attribute] ?? ""}: ${problem} (docs/cas.md, Attributes)`);
    }
    if (mailWithoutConsent(application, attributes)) {
      throw new CommandFailedError(
        `--attributes mail: ${application.name} asks its people's consent, which does not include the e-mail`,
      );
    }
    const settings = {
      url: values.service,
      applicationId: application.id,
      match,
      attributes,
      renames,
      singleLogout: values["single-logout"] ?? false,
      proxy: values.proxy ?? false,
    } as const;
    try {
      await setCasService(db, settings);
    } catch (error) {
      if (error instanceof CasServiceTakenError) {
        throw new CommandFailedError(
          `${values.service} overlaps a CAS service of application ${error.otherApplicationId}`,
        );
      }
      throw error;
    }
    await recordAuditEvent(db, {
      type: "application_updated",
      result: "success",
      applicationId: application.id,
      details: { casService: values.service, match, attributes, renames },
    });
  }
  if (values.remove !== undefined) {
    if (!(await removeCasService(db, application.id, values.remove))) {
      throw new CommandFailedError(`${application.name} has no CAS service ${values.remove}`);
    }
    await recordAuditEvent(db, {
      type: "application_updated",
      result: "success",
      applicationId: application.id,
      details: { casServiceRemoved: values.remove },
    });
  }
  const services = await casServicesOf(db, application.id);
  out.result(
    { id: application.id, name: application.name, casServerUrl: `${config.publicUrl}/cas`, casServices: services },
    services.length > 0
      ? `${application.name}'s CAS services (CAS server URL ${config.publicUrl}/cas):\n${services.map(describe).join("\n")}`
      : `${application.name} has no CAS services.`,
  );
};
