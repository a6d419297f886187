import { useState } from "react";

/**
 * A bank's logo from BankID's list, or its initial in a circle when there is none or it does not load
 * (a slow bank's server, the page's image policy): the name beside it says which bank it is either way.
 */
export function BankLogo({ name, url }: { name: string; url?: string }) {
  const [broken, setBroken] = useState(false);
  if (url && !broken) {
    return (
      <img
        src={url}
        alt=""
        width={32}
        height={32}
        loading="lazy"
        className="size-8 shrink-0 rounded-md object-contain"
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span
      aria-hidden
      className="flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-sm font-semibold text-foreground"
    >
      {name.trim().charAt(0).toUpperCase()}
    </span>
  );
}
