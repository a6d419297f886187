import { AppWindow, GraduationCap, UserRound } from "lucide-react";

/** Campus and My KPI have their own icons; every other application shares one. */
export function AppIcon({ name }: { name: string }) {
  const className = "size-6";
  if (name === "campus") return <GraduationCap className={className} aria-hidden data-icon="campus" />;
  if (name === "my-kpi") return <UserRound className={className} aria-hidden data-icon="my-kpi" />;
  return <AppWindow className={className} aria-hidden data-icon="default" />;
}
