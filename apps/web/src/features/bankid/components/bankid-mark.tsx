import { Landmark } from "lucide-react";

/** The BankID button's sign: a bank building (BankID NBU's own mark is the banks' and NBU's to use). */
export function BankIdMark() {
  return <Landmark aria-hidden className="text-primary" />;
}
