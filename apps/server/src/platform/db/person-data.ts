import type { ErasedCounts, PersonalDataSections } from "@kpi-id/contracts";
import type { Db, User } from "./schema.ts";

/** What erasing a person answers, kind by kind; an area answers the kinds its rows count in (summed across areas). */
export type ErasedShare = Partial<ErasedCounts>;

/**
 * An area's share of the data download: whole sections, or its fields of a section several areas fill (the
 * sign-in methods: the password is the account's, the authenticator app the second factor's, and so on).
 */
export type PersonalDataShare = {
  [K in keyof PersonalDataSections]?: PersonalDataSections[K] extends readonly unknown[] | null
    ? PersonalDataSections[K]
    : Partial<PersonalDataSections[K]>;
};

/** What a section's label says, in both languages (the downloaded file explains itself). */
export interface SectionLabel {
  readonly uk: string;
  readonly en: string;
}

/** What the download knows beyond the person: the browser asking (its session is "current") and when. */
export interface ExportContext {
  readonly sessionId: string;
  readonly now: Date;
  /** Wi-Fi's realm, which the Wi-Fi passwords' user names carry. */
  readonly wifiRealm: string;
}

/**
 * What a model area keeps about a person, for erasure, the data download and the clean-up (issue 74: "a protocol
 * is a record"): each area that holds a person's rows exports one `personData` record, and model/privacy/areas.ts
 * lists them (the type lives here, below the model, for every area to use), so erasure and the download iterate
 * the list instead of importing each area's functions. Every step runs in the caller's transaction and touches
 * only the area's own tables (scripts/dependencies/table-owners.ts).
 */
export interface PersonDataArea {
  /** The model area (its folder), for the list's test and the log. */
  readonly area: string;
  /** Removes the person's rows in this area; answers what went, in the erased-counts' kinds. */
  erase?(db: Db, person: User, now: Date): Promise<ErasedShare>;
  /** The person's rows as the download shows them, without secrets. */
  exportOf?(db: Db, person: User, context: ExportContext): Promise<PersonalDataShare>;
  /** The labels of the sections (and fields) `exportOf` fills. */
  readonly labels?: Readonly<Record<string, SectionLabel>>;
  /** Deletes the area's rows past their time (the ten-minute clean-up), counted by kind. */
  cleanUp?(db: Db, now: Date): Promise<Record<string, number>>;
}
