import type { DeveloperApplication } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `http://localhost[:port]/…` or `http://127.0.0.1[:port]/…`: allowed after approval too, reached only from that computer. */
export function isDevelopmentAddress(value: string): boolean {
  const url = URL.parse(value);
  return url?.protocol === "http:" && loopbackHosts.has(url.hostname);
}

/** The addresses the application runs with now, each under its protocol, development ones marked as such (issue 60). */
export function AddressesList({ application }: { application: DeveloperApplication }) {
  const { t } = useTranslation("developers");
  const groups = [
    ["callbackUrls", application.callbackUrls],
    ["redirectUris", application.redirectUris],
  ] as const;
  if (groups.every(([, values]) => values.length === 0)) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="registered-addresses">
      {groups.map(([name, values]) =>
        values.length > 0 ? (
          <div key={name} className="flex flex-col gap-1">
            <h3 className="text-sm font-medium text-foreground">{t(`addresses.${name}`)}</h3>
            <ul className="flex flex-col gap-1">
              {values.map((value) => (
                <li key={value} className="flex flex-wrap items-center gap-2 text-sm">
                  <code className="break-all text-foreground">{value}</code>
                  {isDevelopmentAddress(value) ? (
                    <span
                      className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900"
                      data-testid="development-address"
                    >
                      {t("addresses.development")}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
    </div>
  );
}
