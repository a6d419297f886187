import type { DeveloperApplication } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";
import { setDeviceFlow, useDeveloperChange } from "../api/developers.ts";
import { DeveloperSection } from "./section.tsx";

/**
 * Device sign-in (issue 60, GitHub's "Enable Device Flow"): the owner turns the OAuth 2.0 device authorization grant
 * on or off for a command-line tool or a device without a browser. It takes effect at once.
 */
export function DeviceFlowSection({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation("developers");
  const change = useDeveloperChange((enabled: boolean) => setDeviceFlow(application.id, enabled));
  const issuer = `${window.location.origin}/oidc`;
  return (
    <DeveloperSection id="device" title={t("device.title")}>
      <label className="flex min-h-11 items-start gap-3 text-foreground">
        <input
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-primary"
          checked={application.deviceFlow}
          disabled={change.isPending}
          onChange={(event) => change.mutate(event.target.checked)}
          data-testid="device-flow-toggle"
        />
        <span>
          <span className="block font-medium">{t("device.toggle")}</span>
          <span className="block text-sm text-muted-foreground">{t("device.description")}</span>
        </span>
      </label>
      <p className="text-sm font-medium text-foreground" data-testid="device-flow-state">
        {t(application.deviceFlow ? "device.on" : "device.off")}
      </p>
      {application.deviceFlow ? (
        <p className="text-sm text-muted-foreground">
          {t("device.endpoint")} <code className="break-all">{`${issuer}/device/auth`}</code>
        </p>
      ) : null}
    </DeveloperSection>
  );
}
