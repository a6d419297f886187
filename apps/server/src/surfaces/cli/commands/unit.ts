import { z } from "zod";
import { rulesNameUnit } from "../../../model/access/rules.ts";
import {
  listUnits,
  removeUnit,
  reviewsFinalAuditEvent,
  setReviewsFinal,
  UnitError,
  upsertUnit,
} from "../../../model/people/units.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { unitKinds } from "../../../platform/db/people-schema.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

/** `unit set|list|remove`: faculties, departments and groups, each once, by its stable code. */

const set: CommandHandler = async ({ db, out }, args) => {
  const values = parseOptions(args, {
    code: { type: "string" },
    kind: { type: "string" },
    "name-uk": { type: "string" },
    "name-en": { type: "string" },
    parent: { type: "string" },
  });
  const kind = z.enum(unitKinds).safeParse(required(values, "kind"));
  if (!kind.success) throw new UsageError(`--kind: one of ${unitKinds.join(", ")}`);
  try {
    const { unit, created } = await upsertUnit(db, {
      code: required(values, "code").trim(),
      kind: kind.data,
      nameUk: required(values, "name-uk"),
      nameEn: values["name-en"],
      parentCode: values.parent,
    });
    out.result(
      { id: unit.id, code: unit.code, created },
      `${created ? "Created" : "Updated"} unit ${unit.code} (${unit.id})`,
    );
  } catch (error) {
    if (error instanceof UnitError) throw new CommandFailedError(error.message);
    throw error;
  }
};

const list: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const units = await listUnits(db);
  const codes = new Map(units.map((unit) => [unit.id, unit.code]));
  const rows = units.map((unit) => ({
    id: unit.id,
    code: unit.code,
    kind: unit.kind,
    nameUk: unit.name_uk,
    nameEn: unit.name_en,
    parent: unit.parent_id ? (codes.get(unit.parent_id) ?? "") : "",
    reviewsFinal: unit.reviews_final,
  }));
  out.result(rows, table(rows.map(({ code, kind, nameUk, parent }) => ({ code, kind, nameUk, parent }))));
};

const remove: CommandHandler = async ({ db, out }, args) => {
  const code = required(parseOptions(args, { code: { type: "string" } }), "code");
  try {
    await removeUnit(db, code, rulesNameUnit);
  } catch (error) {
    if (error instanceof UnitError) throw new CommandFailedError(error.message);
    throw error;
  }
  out.result({ code, removed: true }, `Removed unit ${code}`);
};

/**
 * `unit reviews --code C --final yes|no`: whether a unit admin's approval of a review in the unit (and every unit
 * below it) makes the application live, or is a first approval central IT confirms (issue 79).
 */
const reviews: CommandHandler = async ({ db, out }, args) => {
  const values = parseOptions(args, { code: { type: "string" }, final: { type: "string" } });
  const final = required(values, "final");
  if (final !== "yes" && final !== "no") throw new UsageError("--final: yes or no");
  try {
    const unit = await setReviewsFinal(db, required(values, "code").trim(), final === "yes");
    // Who may make an application live is an authorization change: audited, naming the unit, as a role grant is.
    await recordAuditEvent(db, reviewsFinalAuditEvent(unit, "cli"));
    const says = unit.reviews_final ? "final" : "first approvals central IT confirms";
    out.result(
      { code: unit.code, reviewsFinal: unit.reviews_final },
      `Unit admins' approvals in ${unit.code}: ${says}`,
    );
  } catch (error) {
    if (error instanceof UnitError) throw new CommandFailedError(error.message);
    throw error;
  }
};

export const unitCommands: Record<string, CommandHandler> = { set, list, remove, reviews };
