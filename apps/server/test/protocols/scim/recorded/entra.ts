/**
 * Microsoft Entra ID's provisioning requests, in the shapes its documentation records ("Tutorial: Develop and
 * plan provisioning for a SCIM endpoint", "Known issues and resolutions with SCIM 2.0 protocol compliance"):
 * the default attribute mapping (userPrincipalName → userName, mail → emails[type eq "work"].value, the
 * enterprise extension's employeeNumber, department and manager), capitalised op names, and the legacy
 * "False" string for active. Ids in {braces} are filled in by the test.
 */
export const enterpriseUserSchema = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

export const entra = {
  findUser: (userName: string) => `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
  findByExternalId: (externalId: string) => `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`,
  createUser: (userName: string, externalId: string) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", enterpriseUserSchema],
    externalId,
    userName,
    active: true,
    displayName: "Петренко Олена",
    title: "Лаборант",
    preferredLanguage: "uk-UA",
    emails: [{ primary: true, type: "work", value: userName }],
    phoneNumbers: [{ type: "work", value: "+380 44 204 0000" }],
    addresses: [{ type: "work", formatted: "просп. Берестейський, 37", primary: true }],
    meta: { resourceType: "User" },
    name: { formatted: "Олена Петренко", familyName: "Петренко", givenName: "Олена" },
    roles: [],
    [enterpriseUserSchema]: { employeeNumber: "E-20931", department: "Кафедра ІПІ", organization: "КПІ" },
  }),
  replaceEmailAndFamilyName: (email: string, familyName: string) => ({
    schemas: [patchOp],
    Operations: [
      { op: "Replace", path: 'emails[type eq "work"].value', value: email },
      { op: "Replace", path: "name.familyName", value: familyName },
    ],
  }),
  replaceDisplayName: (displayName: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "Replace", path: "displayName", value: displayName }],
  }),
  replaceGivenName: (givenName: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "Replace", path: "name.givenName", value: givenName }],
  }),
  addWorkEmail: (email: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "Add", path: 'emails[type eq "work"].value', value: email }],
  }),
  addManager: (managerId: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "Add", path: `${enterpriseUserSchema}:manager`, value: managerId }],
  }),
  replaceDepartment: (department: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "Replace", path: `${enterpriseUserSchema}:department`, value: department }],
  }),
  /**
   * Several attributes in one operation without a path ("Known issues…": Entra sends this shape to apps
   * without the compliance flag): dotted keys, the filtered e-mail, the enterprise attribute by its URN.
   */
  replaceWithoutPath: (email: string, givenName: string, employeeNumber: string) => ({
    schemas: [patchOp],
    Operations: [
      {
        op: "Replace",
        value: {
          "name.givenName": givenName,
          'emails[type eq "work"].value': email,
          [`${enterpriseUserSchema}:employeeNumber`]: employeeNumber,
        },
      },
    ],
  }),
  /** What Entra sent before its 2020 compliance fix, and still sends to apps without the feature flag. */
  disableLegacy: {
    schemas: [patchOp],
    Operations: [{ op: "Replace", path: "active", value: "False" }],
  },
  disable: { schemas: [patchOp], Operations: [{ op: "Replace", path: "active", value: false }] },
  /** Group provisioning ("Tutorial: Develop…", Groups: Create Group, Update Group [Add/Remove Members]). */
  findGroup: (displayName: string) =>
    `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${displayName}"`)}`,
  createGroup: (displayName: string, externalId: string) => ({
    schemas: [
      "urn:ietf:params:scim:schemas:core:2.0:Group",
      "http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group",
    ],
    externalId,
    displayName,
    members: [],
    meta: { resourceType: "Group" },
  }),
  addMembers: (...userIds: string[]) => ({
    schemas: [patchOp],
    Operations: [{ op: "Add", path: "members", value: userIds.map((value) => ({ $ref: null, value })) }],
  }),
  removeMembers: (...userIds: string[]) => ({
    schemas: [patchOp],
    Operations: [{ op: "Remove", path: "members", value: userIds.map((value) => ({ $ref: null, value })) }],
  }),
  /** The filtered form Entra sends for a single removal in some tenants ("Known issues…"). */
  removeMemberByFilter: (userId: string) => ({
    schemas: [patchOp],
    Operations: [{ op: "Remove", path: `members[value eq "${userId}"]` }],
  }),
} as const;
