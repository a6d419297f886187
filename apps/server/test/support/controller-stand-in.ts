import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunningProcess, startProcess } from "./freeradius.ts";

/** What a Wi-Fi controller's CoA port received: one line per request, its type and the session's attributes. */
export interface ControllerStandIn {
  process: RunningProcess;
  received(): string[];
}

/**
 * A stand-in for a Wi-Fi controller's CoA port (RFC 5176): a second FreeRADIUS, listening for CoA and Disconnect
 * requests on loopback from the campus FreeRADIUS (127.0.0.1, `secret`), acknowledging each and writing it to a
 * linelog file, as the issue asks. Nothing of KPI ID's code is in it.
 */
export async function startControllerStandIn(dir: string, port: number, secret: string): Promise<ControllerStandIn> {
  mkdirSync(join(dir, "log"), { recursive: true });
  mkdirSync(join(dir, "run"), { recursive: true });
  const file = join(dir, "log", "received");
  writeFileSync(
    join(dir, "radiusd.conf"),
    `prefix = /usr
logdir = ${dir}/log
run_dir = ${dir}/run
libdir = /usr/lib/freeradius
pidfile = \${run_dir}/controller.pid
name = freeradius
log {
	destination = stdout
}
security {
	allow_core_dumps = no
}
client campus-radius {
	ipaddr = 127.0.0.1
	secret = "${secret}"
}
modules {
	always ok {
		rcode = ok
	}
	linelog received {
		filename = ${file}
		format = "%{Packet-Type} User-Name=%{User-Name} Acct-Session-Id=%{Acct-Session-Id} Calling-Station-Id=%{Calling-Station-Id} NAS-Identifier=%{NAS-Identifier} Operator-NAS-Identifier=%{Operator-NAS-Identifier}"
	}
}
server controller {
	listen {
		type = coa
		ipaddr = 127.0.0.1
		port = ${port}
	}
	recv-coa {
		received
		ok
	}
	send-coa {
		ok
	}
}
`,
  );
  const process = await startProcess("freeradius", ["-X", "-d", dir], {}, /Ready to process requests/);
  return {
    process,
    received: () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []),
  };
}
