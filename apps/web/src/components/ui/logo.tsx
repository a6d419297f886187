import { cn } from "@/lib/utils.ts";

/** A heraldic shield with a key: the service's mark. Decorative; the link around it carries the name. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 48" className={cn("h-10 w-auto", className)} aria-hidden focusable="false">
      <path d="M20 1 38 6v16c0 12-7.6 20.6-18 25C9.6 42.6 2 34 2 22V6z" fill="#1b3f8f" />
      <path
        d="M20 4.2 35 8.4V22c0 10.3-6.3 17.7-15 21.7C11.3 39.7 5 32.3 5 22V8.4z"
        fill="none"
        stroke="#e9c46a"
        strokeWidth="1.4"
      />
      <circle cx="20" cy="17" r="5.2" fill="none" stroke="#fff" strokeWidth="2.4" />
      <path d="M20 22.2V35m0-7h4.2M20 32h3.2" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      <path d="M11 12.5h2.5M26.5 12.5H29" stroke="#e9c46a" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({ caption }: { caption: string }) {
  return (
    <span className="flex items-center gap-3">
      <LogoMark />
      <span className="flex flex-col leading-tight">
        <span className="text-lg font-bold tracking-tight text-foreground">KPI ID</span>
        <span className="hidden text-xs text-muted-foreground sm:block">{caption}</span>
      </span>
    </span>
  );
}
