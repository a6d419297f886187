import { createHash, createHmac, randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";

// An access point's side of a device joining: one RADIUS Access-Request with PAP (RFC 2865), signed with a
// Message-Authenticator (RFC 3579, which the shipped clients.conf requires), over UDP. In the generator's process
// rather than a radclient process per join: at tens of joins a second, starting processes would cost the
// generator's core more than FreeRADIUS's work does.

const attribute = (type: number, value: Buffer) => Buffer.concat([Buffer.from([type, value.length + 2]), value]);

/** User-Password hidden as RFC 2865 §5.2 says: the padded password XORed with MD5(secret + previous block). */
function hiddenPassword(password: string, secret: string, authenticator: Buffer): Buffer {
  const plain = Buffer.from(password);
  const padded = Buffer.alloc(Math.max(16, Math.ceil(plain.length / 16) * 16));
  plain.copy(padded);
  const hidden = Buffer.alloc(padded.length);
  let previous = authenticator;
  for (let at = 0; at < padded.length; at += 16) {
    const mask = createHash("md5").update(secret).update(previous).digest();
    for (let index = 0; index < 16; index++) hidden[at + index] = (padded[at + index] ?? 0) ^ (mask[index] ?? 0);
    previous = hidden.subarray(at, at + 16);
  }
  return hidden;
}

export interface Join {
  identity: string;
  password: string;
  /** The device's MAC address (Calling-Station-Id). */
  station: string;
}

export interface RadiusServer {
  port: number;
  secret: string;
}

/** Sends the Access-Request and answers whether it was accepted; throws when no answer came within `timeoutMs`. */
export function requestAccess(server: RadiusServer, join: Join, timeoutMs = 10_000): Promise<boolean> {
  const id = randomBytes(1)[0] ?? 0;
  const authenticator = randomBytes(16);
  const attributes = Buffer.concat([
    attribute(80, Buffer.alloc(16)),
    attribute(1, Buffer.from(join.identity)),
    attribute(2, hiddenPassword(join.password, server.secret, authenticator)),
    attribute(4, Buffer.from([127, 0, 0, 1])),
    attribute(31, Buffer.from(join.station)),
    attribute(30, Buffer.from("AA-BB-CC-DD-EE-01:eduroam")),
    attribute(32, Buffer.from("ap-library-2")),
    attribute(61, Buffer.from([0, 0, 0, 19])),
  ]);
  const packet = Buffer.concat([Buffer.from([1, id, 0, 0]), authenticator, attributes]);
  packet.writeUInt16BE(packet.length, 2);
  // The Message-Authenticator is the HMAC-MD5 of the whole packet with its own value zeroed (it is the first one).
  createHmac("md5", server.secret).update(packet).digest().copy(packet, 22);
  return new Promise((resolve, reject) => {
    const socket = createSocket("udp4");
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no RADIUS answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("message", (answer) => {
      if (answer[1] !== id) return;
      clearTimeout(timer);
      socket.close();
      if (answer[0] === 2) resolve(true);
      else if (answer[0] === 3) resolve(false);
      else reject(new Error(`RADIUS answered code ${answer[0]}`));
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    });
    socket.send(packet, server.port, "127.0.0.1");
  });
}
