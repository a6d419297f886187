import { createHmac } from "node:crypto";
import { splitFullName } from "../../model/people/names.ts";
import type { User } from "../../platform/db/schema.ts";
import { refeds } from "./namespaces.ts";

/** What a released attribute is computed from. */
export interface ReleaseContext {
  user: User;
  spEntityId: string;
  scope: string;
  pairwiseSalt: string;
}

interface AttributeDefinition {
  /** The URI name (urn:oid: for eduPerson and X.500, OASIS URNs for the subject identifiers). */
  name: string;
  values(context: ReleaseContext): string[];
}

const one = (value: string | null | undefined) => (value ? [value] : []);

/** unscoped affiliations from what the person record holds (issue 21 replaces this with the affiliation records). */
function affiliationsOf(user: User): string[] {
  const affiliations = ["member"];
  if (user.student_id) affiliations.push("student");
  if (user.employee_id) affiliations.push("employee");
  return affiliations;
}

/** The person's uuid: never reassigned, and a valid SAML "unique ID" (alphanumerics and '-'). */
const uniqueIdOf = (user: User) => user.id.toLowerCase();

/** Per-SP identifier: the same person gets unlinkable values at different SPs; stable while the salt is. */
export function pairwiseIdOf({ user, spEntityId, pairwiseSalt }: ReleaseContext): string {
  return createHmac("sha256", pairwiseSalt).update(`${user.id}\n${spEntityId}`).digest("hex");
}

/** REFEDS Assurance Framework values we can stand behind. */
function assuranceOf(user: User): string[] {
  const values = [
    "https://refeds.org/assurance",
    "https://refeds.org/assurance/ID/unique",
    "https://refeds.org/assurance/ID/eppn-unique-no-reassign",
    "https://refeds.org/assurance/IAP/low",
  ];
  // Students and employees come from the university's registries, which check identity documents in person.
  if (user.student_id || user.employee_id)
    values.push("https://refeds.org/assurance/IAP/medium", "https://refeds.org/assurance/IAP/local-enterprise");
  return values;
}

export const attributeDefinitions: Record<string, AttributeDefinition> = {
  eduPersonPrincipalName: {
    name: "urn:oid:1.3.6.1.4.1.5923.1.1.1.6",
    values: ({ user, scope }) => [`${uniqueIdOf(user)}@${scope}`],
  },
  "subject-id": {
    name: "urn:oasis:names:tc:SAML:attribute:subject-id",
    values: ({ user, scope }) => [`${uniqueIdOf(user)}@${scope}`],
  },
  "pairwise-id": {
    name: "urn:oasis:names:tc:SAML:attribute:pairwise-id",
    values: (context) => [`${pairwiseIdOf(context)}@${context.scope}`],
  },
  displayName: { name: "urn:oid:2.16.840.1.113730.3.1.241", values: ({ user }) => one(user.full_name) },
  givenName: { name: "urn:oid:2.5.4.42", values: ({ user }) => one(splitFullName(user.full_name).given_name) },
  sn: { name: "urn:oid:2.5.4.4", values: ({ user }) => one(splitFullName(user.full_name).family_name) },
  mail: { name: "urn:oid:0.9.2342.19200300.100.1.3", values: ({ user }) => one(user.email) },
  eduPersonAffiliation: { name: "urn:oid:1.3.6.1.4.1.5923.1.1.1.1", values: ({ user }) => affiliationsOf(user) },
  eduPersonScopedAffiliation: {
    name: "urn:oid:1.3.6.1.4.1.5923.1.1.1.9",
    values: ({ user, scope }) => affiliationsOf(user).map((affiliation) => `${affiliation}@${scope}`),
  },
  schacHomeOrganization: { name: "urn:oid:1.3.6.1.4.1.25178.1.2.9", values: ({ scope }) => [scope] },
  eduPersonAssurance: { name: "urn:oid:1.3.6.1.4.1.5923.1.1.1.11", values: ({ user }) => assuranceOf(user) },
};

export type AttributeName = keyof typeof attributeDefinitions;
export const attributeNames = Object.keys(attributeDefinitions);

/** REFEDS Research and Scholarship: released to every SP tagged with the category. */
export const researchAndScholarshipBundle = [
  "eduPersonPrincipalName",
  "mail",
  "displayName",
  "givenName",
  "sn",
  "eduPersonScopedAffiliation",
];

/** The allow-list of an SP plus the bundles its entity categories earn. */
export function releasedAttributeNames(sp: { released_attributes: string[]; entity_categories: string[] }): string[] {
  const names = new Set(sp.released_attributes.filter((name) => name in attributeDefinitions));
  if (sp.entity_categories.includes(refeds.researchAndScholarship))
    for (const name of researchAndScholarshipBundle) names.add(name);
  return attributeNames.filter((name) => names.has(name));
}

export interface ReleasedAttribute {
  friendlyName: string;
  name: string;
  values: string[];
}

export function releaseAttributes(names: string[], context: ReleaseContext): ReleasedAttribute[] {
  return names
    .map((friendlyName) => {
      const definition = attributeDefinitions[friendlyName];
      return definition ? { friendlyName, name: definition.name, values: definition.values(context) } : undefined;
    })
    .filter((attribute): attribute is ReleasedAttribute => attribute !== undefined && attribute.values.length > 0);
}
