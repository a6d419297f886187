import { type Compilable, CompiledQuery } from "kysely";
import { machineryOn } from "../bench-switches.ts";
import type { Db } from "./schema.ts";

const slotName = Symbol("precompiled value");

interface Slot {
  readonly [slotName]: string;
}

function isSlot(value: unknown): value is Slot {
  return typeof value === "object" && value !== null && slotName in value;
}

/** A stand-in that refuses to become text or JSON, which would freeze the first call's value into the statement. */
function standIn(name: string): Slot {
  const refuse = () => {
    throw new Error(`precompiled statement: ${name} was worked on while the statement was built`);
  };
  return { [slotName]: name, [Symbol.toPrimitive]: refuse, toJSON: refuse } as Slot;
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
 * runs the same text with the call's values put where the stand-ins went. A stand-in turned into text or JSON
 * while building throws, and one that did not become a parameter (each stand-in handed out is checked) refuses
 * the first call with its name; nor can one stand for what Kysely writes into the text itself (an array for `in`,
 * a `null` compared with `is`), nor decide a branch (`$if`: a stand-in is always truthy). It assumes a `db`
 * without Kysely plugins (the service uses none): the text is compiled once, with the first call's.
 */
export function precompiled<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): (db: Db, values: Values) => Promise<Row[]> {
  let template: Template | undefined;
  const compile = (db: Db): Template => {
    const handedOut: Slot[] = [];
    const standIns = new Proxy({} as Values, {
      get: (_target, name) => {
        if (typeof name !== "string") return undefined;
        const slot = standIn(name);
        handedOut.push(slot);
        return slot;
      },
    });
    const compiled = build(db, standIns).compile();
    // Every stand-in handed out, each one itself, must be a parameter: one used elsewhere too (read for a branch,
    // say) would have shaped the text by the first call's value.
    for (const slot of handedOut)
      if (!compiled.parameters.includes(slot))
        throw new Error(`precompiled statement: ${slot[slotName]} did not become a parameter`);
    const slots = compiled.parameters.flatMap((value, index) =>
      isSlot(value) ? [[index, value[slotName]] as const] : [],
    );
    return { sql: compiled.sql, parameters: compiled.parameters, slots };
  };
  return async (db, values) => {
    if (!machineryOn("precompiled")) return (await db.executeQuery<Row>(build(db, values).compile())).rows;
    template ??= compile(db);
    const parameters = [...template.parameters];
    for (const [index, name] of template.slots) parameters[index] = values[name];
    const result = await db.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters));
    return result.rows;
  };
}
