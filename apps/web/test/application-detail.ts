import type { AdminApplicationDetail } from "@kpi-id/contracts";

/** An application as the console's application screen receives it (GET /api/admin/applications/{id}), with the changes given. */
export function applicationDetail(
  changes: Partial<AdminApplicationDetail> & Pick<AdminApplicationDetail, "id" | "name" | "title">,
): AdminApplicationDetail {
  return {
    titleEn: "",
    description: "",
    descriptionEn: "",
    callbackUrls: ["https://t.kpi.ua/cb"],
    releaseTaxId: false,
    requireMfa: false,
    oidcEnabled: false,
    redirectUris: [],
    postLogoutRedirectUris: [],
    scopes: [],
    publicClient: false,
    firstParty: false,
    backchannelLogoutUri: null,
    deviceFlow: false,
    createdAt: "2026-09-01T08:00:00.000Z",
    updatedAt: "2026-09-01T08:00:00.000Z",
    ...changes,
  };
}
