import { type ButtonConfig, toAttributes } from "@kpi-id/signin-button";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card.tsx";
import { cn } from "@/lib/utils.ts";
import { useSigninScript } from "../api/use-signin-script.ts";

/**
 * The generated markup, rendered and then initialised by the real
 * kpi-id-signin.js after every change (once the script has loaded). React owns
 * the element and its attributes; the script owns its children.
 */
export function ButtonPreview({ config }: { config: ButtonConfig }) {
  const { t } = useTranslation("button-wizard");
  const scriptReady = useSigninScript();
  const attributes = Object.fromEntries(toAttributes(config));
  const key = JSON.stringify(attributes);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the attributes React just wrote
  useEffect(() => {
    if (scriptReady) window.KPIID?.init();
  }, [scriptReady, key]);

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold">{t("button-preview.title")}</h2>
      <div
        data-testid="button-preview"
        className={cn(
          "flex min-h-24 items-center justify-center rounded-lg bg-muted/60 p-6",
          config.devMode && "border-2 border-dashed border-red-600",
        )}
      >
        {config.appId.trim() ? (
          <div key={key} id="kpi_id_signin" className="w-full text-center" {...attributes} />
        ) : (
          <p className="text-sm text-muted-foreground">{t("button-preview.empty")}</p>
        )}
      </div>
    </Card>
  );
}
