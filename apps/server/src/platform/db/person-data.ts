import type { ErasedCounts } from "@kpi-id/contracts";
import type { Db, User } from "./schema.ts";

/** What erasing a person answers, kind by kind; an area answers the kinds its rows count in (summed across areas). */
export type ErasedShare = Partial<ErasedCounts>;

/**
 * What a model area keeps about a person, for erasure and the clean-up (issue 74: "a protocol is a record"): each
 * area that holds a person's rows exports one `personData` record, and model/privacy/areas.ts lists them (the type lives here, below the model, for every area to use), so erasure
 * iterates the list instead of importing each area's functions. Every step runs in the caller's transaction and
 * touches only the area's own tables (scripts/dependencies/table-owners.ts).
 */
export interface PersonDataArea {
  /** The model area (its folder), for the list's test and the log. */
  readonly area: string;
  /** Removes the person's rows in this area; answers what went, in the erased-counts' kinds. */
  erase?(db: Db, person: User, now: Date): Promise<ErasedShare>;
  /** Deletes the area's rows past their time (the ten-minute clean-up), counted by kind. */
  cleanUp?(db: Db, now: Date): Promise<Record<string, number>>;
}
