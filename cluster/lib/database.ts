import { randomBytes } from "node:crypto";
import { createUser, migrate, openDatabase, type PasswordHasher } from "@kpi-id/server/testing";
import pg from "pg";
import type { ReleaseDatabaseTools } from "./previous-release.ts";

export interface ClusterDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server DATABASE_URL names (the URL's own database is only used to create it). */
export async function createClusterDatabase(adminUrl: string): Promise<ClusterDatabase> {
  const name = `kpi_id_cluster_${randomBytes(5).toString("hex")}`;
  await adminQuery(adminUrl, `create database ${name}`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

export interface SeedPerson {
  username: string;
  password: string;
  fullName: string;
  taxId?: string;
}

/**
 * Migrates once before any instance starts (so two instances never race to migrate) and adds
 * people. Load-test people share one real argon2id hash of the same password: the sign-ins still
 * verify it in full, only the set-up skips hashing it hundreds of times.
 */
export async function seedClusterDatabase(
  url: string,
  hasher: PasswordHasher,
  people: SeedPerson[],
  /** Another release's migrations and createUser (the rolling upgrade seeds the previous release's schema). */
  tools: ReleaseDatabaseTools = { openDatabase, migrate, createUser },
): Promise<void> {
  const handle = await tools.openDatabase({ url, dataDir: "unused", poolMax: 4 });
  try {
    await tools.migrate(handle);
    const hashes = new Map<string, string>();
    const sharedHasher: PasswordHasher = {
      ...hasher,
      hash: async (password) => {
        const known = hashes.get(password) ?? (await hasher.hash(password));
        hashes.set(password, known);
        return known;
      },
    };
    for (const person of people) {
      await tools.createUser(
        handle.db,
        sharedHasher,
        { username: person.username, fullName: person.fullName, taxId: person.taxId },
        person.password,
      );
    }
  } finally {
    await handle.close();
  }
}
