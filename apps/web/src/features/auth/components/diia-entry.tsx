import { ChevronRight, QrCode } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/lib/utils.ts";

interface DiiaEntryProps {
  href: string;
  title: string;
  description: string;
  /** Another sign-in runs: the block stays in place but does nothing. */
  disabled: boolean;
}

/** The QR block of the login screen; it leads to the Diia screen. */
export function DiiaEntry({ href, title, description, disabled }: DiiaEntryProps) {
  return (
    <Link
      to={href}
      className={cn(
        "group flex items-center gap-4 rounded-lg border border-border bg-white p-4 shadow-sm transition hover:border-primary/40 hover:shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2",
        disabled && "pointer-events-none opacity-50",
      )}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : undefined}
      onClick={(event) => disabled && event.preventDefault()}
      data-testid="diia-login"
    >
      <span className="flex size-11 shrink-0 items-center justify-center rounded-md bg-foreground text-white">
        <QrCode className="size-6" aria-hidden />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-foreground">{title}</span>
        <span className="block text-sm text-muted-foreground">{description}</span>
      </span>
      <ChevronRight className="size-5 text-muted-foreground group-hover:text-primary" aria-hidden />
    </Link>
  );
}
