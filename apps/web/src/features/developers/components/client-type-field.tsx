import { type DeveloperClientType, developerClientTypes } from "@kpi-id/contracts";
import { MonitorSmartphone, Server, Terminal } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils.ts";

const icons = { web: Server, public: MonitorSmartphone, device: Terminal } as const;

/**
 * The first choice when registering (issue 60): what kind of application it is. The form then asks only for what
 * that kind needs; the kind cannot change later (a public client never had a secret to keep).
 */
export function ClientTypeField({
  value,
  onChange,
}: {
  value: DeveloperClientType;
  onChange: (value: DeveloperClientType) => void;
}) {
  const { t } = useTranslation("developers");
  return (
    <fieldset className="space-y-2" data-testid="client-type">
      <legend className="text-sm font-medium text-foreground">{t("clientType.legend")}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {developerClientTypes.map((type) => {
          const Icon = icons[type];
          return (
            <label
              key={type}
              className={cn(
                "flex cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm",
                value === type ? "border-primary bg-primary/5" : "border-border",
              )}
            >
              <span className="flex items-center gap-2 font-medium text-foreground">
                <input
                  type="radio"
                  name="clientType"
                  value={type}
                  className="size-4 accent-primary"
                  checked={value === type}
                  onChange={() => onChange(type)}
                  data-testid={`client-type-${type}`}
                />
                <Icon className="size-4 text-primary" aria-hidden />
                {t(`clientType.${type}.title`)}
              </span>
              <span className="text-muted-foreground">{t(`clientType.${type}.description`)}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The kind, as the application's page says it once registered. */
export function ClientTypeLine({ type }: { type: DeveloperClientType }) {
  const { t } = useTranslation("developers");
  const Icon = icons[type];
  return (
    <p className="flex items-start gap-2 text-sm text-foreground" data-testid="client-type-line">
      <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <span>
        <span className="font-medium">{t(`clientType.${type}.title`)}</span> — {t(`clientType.${type}.description`)}
      </span>
    </p>
  );
}
