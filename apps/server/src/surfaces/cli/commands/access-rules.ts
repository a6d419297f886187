import { z } from "zod";
import {
  addAccessRule,
  DuplicateRuleError,
  excludePerson,
  listAccessRules,
  removeAccessRule,
} from "../../../model/access/rules.ts";
import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import { revokeOidcGrants } from "../../../model/oidc/grants.ts";
import { findUnitByCode } from "../../../model/people/units.ts";
import { countPeopleWithAccess } from "../../../model/users/for-lists.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import type { ApplicationRow } from "../../../platform/db/schema.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

/** `app rule add|remove|list` and `app exclude`: access by rule, through the service the console shares. */

const cliActor = { actor: "cli" };

async function requireApplication(context: CliContext, name: string): Promise<ApplicationRow> {
  const application = await findApplicationByIdOrName(context.db, name);
  if (!application) throw new CommandFailedError(`no application '${name}'`);
  return application;
}

const add: CommandHandler = async (context, args) => {
  const values = parseOptions(args, {
    app: { type: "string" },
    affiliation: { type: "string" },
    unit: { type: "string" },
    "without-subunits": { type: "boolean" },
    status: { type: "string" },
  });
  const application = await requireApplication(context, required(values, "app"));
  let unitId: string | undefined;
  if (values.unit) {
    const unit = await findUnitByCode(context.db, values.unit);
    if (!unit) throw new CommandFailedError(`no unit '${values.unit}'`);
    unitId = unit.id;
  }
  try {
    const rule = await addAccessRule(
      context.db,
      application.id,
      { affiliation: values.affiliation, unitId, includeSubunits: !values["without-subunits"], status: values.status },
      cliActor,
    );
    const people = await countPeopleWithAccess(context.db, application.id);
    context.out.result(
      { id: rule.id, application: application.name, people },
      `Rule ${rule.id} added to ${application.name}; ${people} people have access now`,
    );
  } catch (error) {
    if (error instanceof z.ZodError) {
      throw new UsageError(error.issues.map((i) => `${i.path.join(".") || "rule"}: ${i.message}`).join("; "));
    }
    if (error instanceof DuplicateRuleError) throw new CommandFailedError(error.message);
    throw error;
  }
};

const remove: CommandHandler = async (context, args) => {
  const values = parseOptions(args, { app: { type: "string" }, id: { type: "string" } });
  const application = await requireApplication(context, required(values, "app"));
  const id = required(values, "id");
  if (!(await removeAccessRule(context.db, application.id, id, cliActor))) {
    throw new CommandFailedError(`${application.name} has no rule '${id}'`);
  }
  const people = await countPeopleWithAccess(context.db, application.id);
  context.out.result(
    { id, application: application.name, people },
    `Rule ${id} removed from ${application.name}; ${people} people have access now`,
  );
};

const list: CommandHandler = async (context, args) => {
  const values = parseOptions(args, { app: { type: "string" } });
  const application = await requireApplication(context, required(values, "app"));
  const rules = await listAccessRules(context.db, application.id);
  context.out.result(
    rules,
    rules.length === 0
      ? `${application.name} has no rules (individual grants only)`
      : table(
          rules.map((rule) => ({
            id: rule.id,
            affiliation: rule.affiliation ?? "any",
            unit: rule.unitCode ? `${rule.unitCode}${rule.includeSubunits ? " and sub-units" : " only"}` : "any",
            status: rule.status ?? "any current",
          })),
        ),
  );
};

const exclude: CommandHandler = async (context, args) => {
  const values = parseOptions(args, { app: { type: "string" }, username: { type: "string" } });
  const application = await requireApplication(context, required(values, "app"));
  const username = required(values, "username");
  const user = await findUserByUsername(context.db, username);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  await excludePerson(context.db, user.id, application.id, cliActor);
  await revokeOidcGrants(context.db, { userId: user.id, clientId: application.id });
  context.out.result(
    { username: user.username, application: application.name, excluded: true },
    `${user.username} is excluded from ${application.name} whatever its rules say (user grant lifts it)`,
  );
};

export const accessRuleCommands: Record<string, CommandHandler> = {
  "rule add": add,
  "rule remove": remove,
  "rule list": list,
  exclude,
};
