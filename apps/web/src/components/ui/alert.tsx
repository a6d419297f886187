import { cva, type VariantProps } from "class-variance-authority";
import { CircleAlert, Info } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils.ts";

const alertVariants = cva("flex gap-3 rounded-lg border p-4 text-sm [&_svg]:mt-0.5 [&_svg]:size-5 [&_svg]:shrink-0", {
  variants: {
    variant: {
      info: "border-primary/25 bg-primary/5 text-foreground [&_svg]:text-primary",
      destructive: "border-destructive/40 bg-destructive/5 text-destructive-strong [&_svg]:text-destructive",
    },
  },
  defaultVariants: { variant: "info" },
});

interface AlertProps extends VariantProps<typeof alertVariants> {
  title: ReactNode;
  children?: ReactNode;
  className?: string;
  testId?: string;
}

/** A notice in the page flow; destructive ones are announced at once. */
export function Alert({ title, children, variant, className, testId }: AlertProps) {
  return (
    <div
      role={variant === "destructive" ? "alert" : "status"}
      className={cn(alertVariants({ variant }), className)}
      data-testid={testId}
    >
      {variant === "destructive" ? <CircleAlert aria-hidden /> : <Info aria-hidden />}
      <div className="space-y-1">
        <p className="font-semibold leading-5">{title}</p>
        {children ? <div className="leading-5">{children}</div> : null}
      </div>
    </div>
  );
}
