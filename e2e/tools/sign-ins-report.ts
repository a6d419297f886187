import { writeFileSync } from "node:fs";
import { countSignIns, signInLog } from "./sign-ins.ts";

/** The run's global teardown: how many sign-ins went through the login page and how many through the API. */
export default function reportSignIns(): void {
  const counts = countSignIns();
  writeFileSync(signInLog.replace(/\.txt$/, ".json"), `${JSON.stringify(counts, null, 2)}\n`);
  console.log(`sign-ins: ${counts.screen} through the login page, ${counts.api} through the API`);
}
