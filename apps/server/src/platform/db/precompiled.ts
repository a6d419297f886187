import { type Compilable, CompiledQuery } from "kysely";
import type { Db } from "./schema.ts";

const slotName = Symbol("precompiled value");

interface Slot {
  readonly [slotName]: string;
}

function isSlot(value: unknown): value is Slot {
  return typeof value === "object" && value !== null && slotName in value;
}

/** What a precompiled statement is built from: its SQL and where each named value goes among its parameters. */
interface Template {
  sql: string;
  parameters: readonly unknown[];
  slots: readonly (readonly [index: number, name: string])[];
}

/**
 * A statement on a hot path, built with Kysely once instead of at every call. Building and compiling the ticket
 * exchange's statement took about a fifth of the exchange's main-thread time (docs/performance.md, seventeenth
 * pass); the text never changes, only its values. `build` receives stand-ins for the values, to be passed where
 * Kysely makes them parameters (`where`, `set`, `eb.val`, `${…}` in `sql`) and never looked into: each call
 * runs the same text with the call's values put where the stand-ins went. A stand-in worked on while building
 * (turned into text, say) never becomes a parameter, and the first call is refused with its name; nor can one
 * stand for what Kysely writes into the text itself (an array for `in`, a `null` compared with `is`).
 */
export function precompiled<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): (db: Db, values: Values) => Promise<Row[]> {
  let template: Template | undefined;
  const compile = (db: Db): Template => {
    const used = new Set<string>();
    const standIns = new Proxy({} as Values, {
      get: (_target, name) => {
        if (typeof name !== "string") return undefined;
        used.add(name);
        return { [slotName]: name } satisfies Slot;
      },
    });
    const compiled = build(db, standIns).compile();
    const slots = compiled.parameters.flatMap((value, index) =>
      isSlot(value) ? [[index, value[slotName]] as const] : [],
    );
    for (const name of used)
      if (!slots.some(([, slot]) => slot === name))
        throw new Error(`precompiled statement: ${name} did not become a parameter`);
    return { sql: compiled.sql, parameters: compiled.parameters, slots };
  };
  return async (db, values) => {
    template ??= compile(db);
    const parameters = [...template.parameters];
    for (const [index, name] of template.slots) parameters[index] = values[name];
    const result = await db.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters));
    return result.rows;
  };
}
