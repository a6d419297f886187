/**
 * The sandbox: local stand-ins for the outside services KPI ID talks to
 * (Google's OpenID provider, Diia's partner API and phone, BankID NBU's node, a mail relay with an inbox). Each stand-in is
 * a small server on its own loopback port; it hands back the environment
 * variables that point the product at it, so the product's code path is the
 * production one with other addresses.
 */
export interface SandboxOptions {
  /** The product's public URL (the stand-ins redirect and post back to it). */
  productUrl: string;
  /** Where stand-ins may keep generated keys and certificates. */
  dataDir: string;
  googlePort?: number;
  diiaPort?: number;
  /** The mail stand-in's inbox page (its SMTP port is picked free). */
  mailPort?: number;
  /** BankID NBU's node (bank list, authorize page, token and resource endpoints). */
  bankIdPort?: number;
  /** The environment already set; a stand-in never overrides a configured real service. */
  env: Record<string, string | undefined>;
}

export interface RunningStandIn {
  name: string;
  url: string;
  /** Variables for the product's configuration. */
  env: Record<string, string>;
  close(): Promise<void>;
}
