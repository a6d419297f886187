import { ChevronRight, Landmark, Mail, QrCode } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export type RecoveryRoute = "diia" | "bankid" | "email";

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

const choices: Record<RecoveryRoute, { icon: ReactNode; title: string; description: string }> = {
  diia: { icon: <QrCode aria-hidden />, title: "password:forgot.diia", description: "password:forgot.diiaDescription" },
  bankid: {
    icon: <Landmark aria-hidden />,
    title: "password:forgot.bankid",
    description: "password:forgot.bankidDescription",
  },
  email: {
    icon: <Mail aria-hidden />,
    title: "password:forgot.email",
    description: "password:forgot.emailDescription",
  },
};

/** The ways back in this deployment offers, in the order given: Diia and BankID (when configured), e-mail (when mail is). */
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
        {routes.map((route) => (
          <Choice
            key={route}
            to={hrefOf(route)}
            icon={choices[route].icon}
            title={t(choices[route].title)}
            description={t(choices[route].description)}
          />
        ))}
      </ul>
    </nav>
  );
}
