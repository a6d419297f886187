import type { ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button.tsx";
import { cn } from "@/lib/utils.ts";

interface FullPageLinkProps {
  href: string;
  /** Another sign-in runs: the link stays in place but does nothing. */
  disabled: boolean;
  onStart: () => void;
  testId: string;
  children: ReactNode;
}

/**
 * A sign-in button that is a plain link to the server (Google, BankID): a full-page navigation, so the
 * server can start the provider's flow and set its own cookie.
 */
export function FullPageLink({ href, disabled, onStart, testId, children }: FullPageLinkProps) {
  return (
    <a
      href={href}
      className={cn(
        buttonVariants({ variant: "outline", size: "lg", className: "w-full" }),
        disabled && "pointer-events-none opacity-50",
      )}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : undefined}
      onClick={(event) => (disabled ? event.preventDefault() : onStart())}
      data-testid={testId}
    >
      {children}
    </a>
  );
}
