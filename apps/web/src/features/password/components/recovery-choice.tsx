import { ChevronRight, Mail, QrCode } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export type RecoveryRoute = "diia" | "email";

function Choice({ to, icon, title, description }: { to: string; icon: ReactNode; title: string; description: string }) {
  return (
    <li>
      <Link
        to={to}
        className="flex items-center gap-3 rounded-xl border border-border bg-white p-4 shadow-sm transition-colors hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="text-primary [&_svg]:size-6">{icon}</span>
        <span className="flex-1 space-y-1">
          <span className="block font-medium text-foreground">{title}</span>
          <span className="block text-sm text-muted-foreground">{description}</span>
        </span>
        <ChevronRight aria-hidden className="size-5 text-muted-foreground" />
      </Link>
    </li>
  );
}

/** The ways back in this deployment offers: Diia (when configured) and e-mail (when mail is). */
export function RecoveryChoice({
  routes,
  hrefOf,
}: {
  routes: RecoveryRoute[];
  hrefOf: (route: RecoveryRoute) => string;
}) {
  const { t } = useTranslation("password");
  return (
    <nav aria-label={t("password:forgot.choose")}>
      <ul className="flex flex-col gap-3">
        {routes.includes("diia") ? (
          <Choice
            to={hrefOf("diia")}
            icon={<QrCode aria-hidden />}
            title={t("password:forgot.diia")}
            description={t("password:forgot.diiaDescription")}
          />
        ) : null}
        {routes.includes("email") ? (
          <Choice
            to={hrefOf("email")}
            icon={<Mail aria-hidden />}
            title={t("password:forgot.email")}
            description={t("password:forgot.emailDescription")}
          />
        ) : null}
      </ul>
    </nav>
  );
}
