import { type ButtonConfig, defaultConfig } from "@kpi-id/signin-button";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonPreview } from "./button-preview.tsx";
import { ConfigurationForm } from "./configuration-form.tsx";
import { IntegrationCard } from "./integration-card.tsx";
import { ManualCard } from "./manual-card.tsx";

/** The button wizard: configure the sign-in button, preview it, copy the snippets. */
export function ButtonWizard() {
  const { t } = useTranslation("button-wizard");
  const [config, setConfig] = useState<ButtonConfig>(defaultConfig);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t("title")}</h1>
      <p className="text-muted-foreground">{t("description")}</p>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-6">
          <ConfigurationForm config={config} onChange={setConfig} />
          <ButtonPreview config={config} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <ManualCard />
          <IntegrationCard config={config} />
        </div>
      </div>
    </div>
  );
}
