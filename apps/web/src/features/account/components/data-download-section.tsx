import { FileDown } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { apiFetch } from "@/lib/api-client.ts";
import { useAccountChange } from "../api/account-changes.ts";
import { AccountSection } from "./account-section.tsx";
import type { AskAgain } from "./use-reauth.tsx";

/** Fetches the person's data and hands it to the browser as the file the server names. */
async function downloadPersonalData(): Promise<void> {
  const response = await apiFetch("/api/account/personal-data", { failure: "Failed to download the data" });
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "kpi-id-data.json";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** "Your data": everything KPI ID keeps about the person as one JSON file (docs/privacy.md). */
export function DataDownloadSection({ askAgain }: { askAgain: AskAgain }) {
  const { t } = useTranslation("account");
  const download = useAccountChange(downloadPersonalData, askAgain);
  return (
    <AccountSection
      id="data"
      icon={FileDown}
      title={t("account:data.title")}
      description={t("account:data.description")}
      actions={
        <Button variant="outline" onClick={() => download.mutate(undefined)} disabled={download.isPending}>
          {download.isPending ? t("account:data.preparing") : t("account:data.download")}
        </Button>
      }
    >
      {null}
    </AccountSection>
  );
}
