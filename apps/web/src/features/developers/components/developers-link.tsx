import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useMyApplications, useMyMemberships } from "../api/developers.ts";

/**
 * The account page's way to the developers' page, for people who may register applications, already own one,
 * test one or are invited to one (where they accept or decline it).
 */
export function DevelopersLink() {
  const { t } = useTranslation("developers");
  const language = useLanguage();
  const { data } = useMyApplications();
  const memberships = useMyMemberships().data;
  const member = !!memberships && memberships.invitations.length + memberships.testing.length > 0;
  if (!data || (!data.allowed && data.applications.length === 0 && !member)) return null;
  return (
    <p className="text-sm">
      <Link
        to={localizePath(language, "/developers")}
        className="font-medium text-primary underline-offset-4 hover:underline"
        data-testid="developers-link"
      >
        {t("accountLink")}
      </Link>
    </p>
  );
}
