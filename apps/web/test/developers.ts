import type { DeveloperApplication } from "@kpi-id/contracts";

export const id = "0b6a2b0e-7c55-4d6f-9a39-0a1a3c1f2e11";

/** An application of the signed-in student's, in testing, as GET /api/developers/applications/{id} answers. */
export const sampleDeveloperApplication: DeveloperApplication = {
  id,
  name: "dev-1a2b3c",
  title: "Розклад",
  titleEn: "Timetable",
  description: "",
  descriptionEn: "",
  iconUrl: "",
  homePageUrl: "",
  privacyPolicyUrl: "",
  callbackUrls: ["http://localhost:4000/callback"],
  redirectUris: [],
  scopes: ["openid", "profile"],
  lifecycle: "testing",
  suspended: false,
  createdAt: "2026-03-01T09:00:00.000Z",
  owners: [{ username: "student", you: true }],
  testers: [],
  invitations: [],
  review: null,
  pendingChange: null,
  clientType: "web",
  deviceFlow: false,
  mailReachable: true,
  secrets: [{ which: "current", createdAt: "2026-03-01T09:00:00.000Z", lastUsedAt: null, endsAt: null }],
};
