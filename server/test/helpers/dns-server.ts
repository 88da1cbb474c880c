import dgram from 'node:dgram';
import { once } from 'node:events';
import ipaddr from 'ipaddr.js';

export type RecordType = 'A' | 'AAAA';

/** The addresses to answer for a name and type; null answers NXDOMAIN (no such name). */
export type Zone = (name: string, type: RecordType) => string[] | null;

export interface TestDnsServer {
  /** host:port, as OUTBOUND_DNS_SERVERS takes it. */
  address: string;
  /** Every question asked, in order, e.g. "A mixed.test". */
  questions: string[];
  close(): Promise<void>;
}

const TYPE_CODES: Record<number, RecordType> = { 1: 'A', 28: 'AAAA' };

/** Reads the question's name and the offset just past the question (type and class included). */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (msg[offset] !== 0) {
    const length = msg[offset]!;
    labels.push(msg.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += length + 1;
  }
  const type = msg.readUInt16BE(offset + 1);
  return { name: labels.join('.').toLowerCase(), type, end: offset + 5 };
}

/**
 * A real DNS server on loopback UDP answering A and AAAA questions from `zone`, so tests can serve a
 * name with both a public and a private record, or one that changes its answer between two lookups
 * (DNS rebinding), without touching the machine's resolver. TTL 0: nothing is cached.
 */
export async function startDnsServer(zone: Zone): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (msg, peer) => {
    if (msg.length < 17) return;
    const { name, type, end } = readQuestion(msg);
    const recordType = TYPE_CODES[type];
    if (recordType) questions.push(`${recordType} ${name}`);
    const answers = recordType ? zone(name, recordType) : [];
    const records = (answers ?? []).map((a) => Buffer.from(ipaddr.parse(a).toByteArray()));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    // QR, authoritative, recursion desired (echoed) and available; rcode 3 = NXDOMAIN.
    const rd = msg.readUInt16BE(2) & 0x0100;
    header.writeUInt16BE(0x8000 | 0x0400 | rd | 0x0080 | (answers === null ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    const body = records.map((rdata) => {
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(type, 2);
      rr.writeUInt16BE(1, 4); // class IN
      rr.writeUInt32BE(0, 6); // TTL 0
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, msg.subarray(12, end), ...body]), peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
