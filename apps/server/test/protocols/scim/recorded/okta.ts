/**
 * Okta's SCIM 2.0 provisioning requests, in the shapes its documentation records ("SCIM 2.0 protocol
 * reference", "Test your SCIM API"): lookups with startIndex and count, a full PUT for profile changes,
 * deactivation by a PATCH without a path, group push with only a displayName and an empty members list.
 * With "Sync password" on, Okta's create and full PUT carry `password`, and a password change comes as a
 * PATCH replace of `{"password": …}` without a path (docs/scim.md, SCIM_PASSWORDS).
 */
const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** Okta's user as it creates it; with "Sync password" on, the same body carries `password`. */
const oktaUser = (userName: string, externalId: string, givenName = "Тарас") => ({
  schemas: [userSchema],
  userName,
  name: { givenName, familyName: "Шевчук" },
  emails: [{ primary: true, value: userName, type: "work" }],
  displayName: `${givenName} Шевчук`,
  locale: "uk-UA",
  externalId,
  groups: [],
  active: true,
});

export const okta = {
  findUser: (userName: string) =>
    `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`,
  createUser: (userName: string, externalId: string) => oktaUser(userName, externalId),
  replaceUser: (id: string, userName: string, externalId: string, givenName: string) => ({
    ...oktaUser(userName, externalId, givenName),
    id,
  }),
  createUserWithPassword: (userName: string, externalId: string, password: string) => ({
    ...oktaUser(userName, externalId),
    password,
  }),
  replaceUserWithPassword: (id: string, userName: string, externalId: string, password: string) => ({
    ...oktaUser(userName, externalId),
    id,
    password,
  }),
  changePassword: (password: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "replace", value: { password } }],
  }),
  /** A profile change as a PATCH without a path (Okta's "SCIM 2.0 protocol reference", Update a specific User). */
  replaceProfile: (email: string, givenName: string) => ({
    schemas: [patchOp],
    Operations: [
      {
        op: "replace",
        value: { name: { givenName }, emails: [{ primary: true, value: email, type: "work" }] },
      },
    ],
  }),
  deactivate: { schemas: [patchOp], Operations: [{ op: "replace", value: { active: false } }] },
  reactivate: { schemas: [patchOp], Operations: [{ op: "replace", value: { active: true } }] },
  findGroup: (displayName: string) =>
    `/Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}&startIndex=1&count=100`,
  pushGroup: (displayName: string) => ({ schemas: [groupSchema], displayName, members: [] }),
  renameGroup: (id: string, displayName: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "replace", value: { id, displayName } }],
  }),
  addMember: (userId: string, display: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "add", path: "members", value: [{ value: userId, display }] }],
  }),
  removeMember: (userId: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "remove", path: `members[value eq "${userId}"]` }],
  }),
  /** Okta's full group push: PUT with displayName and every member. */
  replaceGroup: (id: string, displayName: string, members: { value: string; display: string }[]) => ({
    schemas: [groupSchema],
    id,
    displayName,
    members,
  }),
} as const;
