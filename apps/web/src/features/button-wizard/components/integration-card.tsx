import type { ButtonConfig } from "@kpi-id/signin-button";
import * as Tabs from "@radix-ui/react-tabs";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card.tsx";
import { useSettings } from "@/lib/settings.ts";
import { usePinnedScript } from "../api/use-pinned-script.ts";
import { htmlButtonSnippet, htmlScriptSnippet, reactComponentSnippet, reactHookSnippet } from "../snippets.ts";
import { CodeSection } from "./code-section.tsx";

const tabClass =
  "rounded-md px-4 py-1.5 text-sm font-medium text-muted-foreground data-[state=active]:bg-white data-[state=active]:text-foreground data-[state=active]:shadow-sm";

/** HTML and React tabs, two snippets each, for the configuration on the left. */
export function IntegrationCard({ config }: { config: ButtonConfig }) {
  const { t } = useTranslation("button-wizard");
  // The service's public address (PUBLIC_URL), not whatever address this page was opened with.
  const origin = useSettings().data?.publicUrl ?? window.location.origin;
  const pinned = usePinnedScript();
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold">{t("integration.title")}</h2>
      <Tabs.Root defaultValue="html" className="flex flex-col gap-4">
        <Tabs.List aria-label={t("integration.title")} className="inline-flex w-fit gap-1 rounded-lg bg-muted p-1">
          <Tabs.Trigger value="html" className={tabClass}>
            HTML
          </Tabs.Trigger>
          <Tabs.Trigger value="react" className={tabClass}>
            React
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="html" className="flex flex-col gap-5">
          <CodeSection title={t("integration.html.script")} code={htmlScriptSnippet(origin, pinned)} />
          <CodeSection title={t("integration.html.button")} code={htmlButtonSnippet(config)} />
        </Tabs.Content>
        <Tabs.Content value="react" className="flex flex-col gap-5">
          <CodeSection title={t("integration.react.hook")} code={reactHookSnippet(origin, pinned)} />
          <CodeSection title={t("integration.react.component")} code={reactComponentSnippet(config)} />
        </Tabs.Content>
      </Tabs.Root>
    </Card>
  );
}
