import { findUnitById, listUnits } from "../../model/people/units.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { type Reach, reaches } from "./authorize.ts";

/** Every unit's code by its id: the tree is small (hundreds of units), so one read serves a whole list. */
export async function unitCodes(db: Db): Promise<Map<string, string>> {
  return new Map((await listUnits(db)).map((unit) => [unit.id, unit.code]));
}

/**
 * The unit an application is registered for: an admin may name any unit or none (central IT's); a unit admin must
 * name one within reach. A unit that does not exist, or not for this operator, is 404 `admin.unit_not_found`.
 */
export async function requireUnitInReach(db: Db, reach: Reach, unitId: string | undefined): Promise<string | null> {
  if (unitId === undefined) {
    if (reach.everywhere) return null;
    throw new AppError("admin.unit_not_found");
  }
  const unit = await findUnitById(db, unitId);
  if (!unit || !reaches(reach, unit.id)) throw new AppError("admin.unit_not_found");
  return unit.id;
}
