import SCIMMY from "scimmy";
import {
  employeeCategories,
  employmentTypes,
  positionStatuses,
  studentStatuses,
  unitKinds,
} from "../../platform/db/people-schema.ts";
import { kpiGroupSchemaId, kpiUserSchemaId, scimBasePath, scimMaxResults } from "./constants.ts";

/**
 * The SCIM schemas KPI ID speaks (RFC 7643): core User and Group, and KPI extensions carrying the people
 * model (student records, employee positions, units). scimmy holds them (and matches filters and applies PATCH);
 * its store is process-wide, so this runs once however many apps a process builds (tests build many). Loaded
 * with the first SCIM request (handlers.ts), not at start-up.
 */

const { Attribute, SchemaDefinition } = SCIMMY.Types;
const dateText = { description: "A date, YYYY-MM-DD" };

const studentRecord = new Attribute(
  "complex",
  "studentRecords",
  { multiValued: true, description: "Student records: one per programme the person studies or studied" },
  [
    new Attribute("string", "studentId", { required: true, description: "The student office's id" }),
    new Attribute("string", "unit", { description: "The code of the unit (group, department or faculty)" }),
    new Attribute("string", "speciality"),
    new Attribute("string", "studyForm"),
    new Attribute("integer", "studyYear"),
    new Attribute("string", "status", { required: true, canonicalValues: [...studentStatuses] }),
    new Attribute("string", "startsOn", dateText),
    new Attribute("string", "endsOn", dateText),
    new Attribute("boolean", "primary"),
  ],
);

const employeePosition = new Attribute(
  "complex",
  "employeePositions",
  { multiValued: true, description: "Employee positions: one per post the person holds or held" },
  [
    new Attribute("string", "employeeId", { required: true, description: "The HR system's id" }),
    new Attribute("string", "position"),
    new Attribute("string", "unit", { description: "The code of the unit (department, faculty, office)" }),
    new Attribute("string", "employmentType", { canonicalValues: [...employmentTypes] }),
    new Attribute("string", "category", { canonicalValues: [...employeeCategories] }),
    new Attribute("string", "status", { required: true, canonicalValues: [...positionStatuses] }),
    new Attribute("string", "startsOn", dateText),
    new Attribute("string", "endsOn", dateText),
    new Attribute("boolean", "primary"),
  ],
);

export const kpiUserExtension = new SchemaDefinition(
  "KpiUser",
  kpiUserSchemaId,
  "KPI ID's people model: student records and employee positions",
  [
    studentRecord,
    employeePosition,
    new Attribute("string", "affiliations", {
      multiValued: true,
      // Read-only by direction: scimmy refuses to build a resource holding an immutable list in an extension.
      direction: "out",
      description: "eduPerson affiliations derived from the records (read-only)",
    }),
  ],
);

export const kpiGroupExtension = new SchemaDefinition(
  "KpiUnit",
  kpiGroupSchemaId,
  "A unit of the university (faculty, department, group): its kind, English name and parent",
  [
    new Attribute("string", "kind", { canonicalValues: [...unitKinds] }),
    new Attribute("string", "nameEn"),
    new Attribute("string", "parent", { description: "The code of the unit above" }),
  ],
);

let configured = false;

/** Declares the schemas, the service provider configuration and the resource types, once. */
export function configureScimmy(): void {
  if (configured) return;
  configured = true;
  SCIMMY.Config.set({
    documentationUri: "https://github.com/kpi-ua/kpi-id/blob/main/docs/scim.md",
    patch: { supported: true },
    filter: { supported: true, maxResults: scimMaxResults },
    sort: { supported: true },
    etag: { supported: true },
    bulk: { supported: false },
    changePassword: { supported: true },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "A token an operator made for this source system with `kpi-id scim token create`",
        primary: true,
      },
    ],
  });
  // scimmy's typings name only Schema classes here; its code takes a SchemaDefinition as well (types.js, Schema.extend).
  type Extension = Parameters<typeof SCIMMY.Resources.User.extend>[0];
  SCIMMY.Resources.User.extend(kpiUserExtension as unknown as Extension, false);
  // RFC 7643 §4.3, as Entra ID's default mapping sends it; kept as sent (user-fields.ts).
  SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false);
  // A unit's members follow from the Users' records and a pushed group's are the client's (group-model.ts):
  // members stay writable in /Schemas, and writeScimGroup refuses them for a unit, naming the rule.
  SCIMMY.Resources.Group.extend(kpiGroupExtension as unknown as Extension, false);
  SCIMMY.Resources.declare(SCIMMY.Resources.User, { basepath: scimBasePath });
  SCIMMY.Resources.declare(SCIMMY.Resources.Group, { basepath: scimBasePath });
  SCIMMY.Resources.ResourceType.basepath(scimBasePath);
  SCIMMY.Resources.Schema.basepath(scimBasePath);
  SCIMMY.Resources.ServiceProviderConfig.basepath(scimBasePath);
}
