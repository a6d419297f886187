import type { ComponentProps } from "react";
import { cn } from "@/lib/utils.ts";

/** A multi-line field styled as Input: a red border while aria-invalid. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return (
    <textarea
      className={cn(
        "min-h-24 w-full rounded-md border border-input bg-white px-3 py-2 text-base text-foreground shadow-xs focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive",
        className,
      )}
      {...props}
    />
  );
}
