/**
 * `npm run bench -- seal [--messages N]`: the CPU a Web Push message costs to seal, in this process,
 * one message after another: as the push sealer seals it in a burst (a message key prepared ahead,
 * then one AES-128-GCM record on the delivery worker's event loop), preparing that key (as the
 * sealer's threads do, stack traces off), and sealing whole with a fresh key as a thread does when
 * nothing was prepared (`http_ece`); beside them, `web-push`'s whole `generateRequestDetails` with
 * stack traces on (Node's default) and off, and the parts a seal is made of: the ECDH key pair and
 * secret a message needs, and an HMAC keyed with a Buffer, a KeyObject (made once, or each call as
 * webhook signing does) and a Buffer with stack traces off. Microseconds of CPU (user + system) per
 * call, after a warm-up of a tenth of the calls.
 */
import { createECDH, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import webPush from 'web-push';
import {
  encryptPush,
  makeSenderKey,
  PREPARED_KEY_BYTES,
  prepareMessageKey,
  SENDER_KEY_BYTES,
  sealPrepared,
} from '../server/src/modules/notifications/channels/push-seal.ts';
import { browserPushKeys } from '../server/test/helpers/web-push-decrypt.ts';
import { printTable, round } from './bench-lib.ts';

function cpuMicrosPerCall(calls: number, fn: () => unknown): number {
  for (let i = 0; i < Math.ceil(calls / 10); i++) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) fn();
  const used = process.cpuUsage(start);
  return round((used.user + used.system) / calls)!;
}

export async function runSealBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { messages: { type: 'string', default: '3000' } } });
  const messages = Number(values.messages);
  if (!Number.isInteger(messages) || messages < 1)
    throw new Error('--messages takes a whole number of at least 1');

  const browser = browserPushKeys();
  const subscription = {
    endpoint: 'https://push.example.test/send/bench',
    keys: { p256dh: browser.p256dh, auth: browser.auth.toString('base64url') },
  };
  const payload = JSON.stringify({
    title: 'Opening: Polynesian Village Resort, 4 nights',
    body: 'Standard View, 2 adults: $2,114 for Jun 3–7. Open the alert to book before it goes.',
    path: '/alerts/00000000-0000-4000-8000-000000000000',
    tag: '00000000-0000-4000-8000-000000000000',
    urgent: false,
  });
  const seal = () =>
    webPush.generateRequestDetails(subscription, payload, {
      headers: { Authorization: 'vapid t=bench, k=bench' },
      TTL: 900,
      contentEncoding: 'aes128gcm',
    });
  const serverKey = createECDH('prime256v1');
  serverKey.generateKeys();
  const browserPublic = browser.ecdh.getPublicKey();
  const hmacKey = randomBytes(32);
  const hmacKeyObject = createSecretKey(hmacKey);
  const data = randomBytes(64);
  const hmacWithBuffer = () => createHmac('sha256', hmacKey).update(data).digest();
  const limit = Error.stackTraceLimit;

  const rows: [string, number][] = [
    ['generateRequestDetails, stack traces on', cpuMicrosPerCall(messages, seal)],
    [
      'ECDH key pair (createECDH + generateKeys)',
      cpuMicrosPerCall(messages, () => createECDH('prime256v1').generateKeys()),
    ],
    ['ECDH secret (computeSecret)', cpuMicrosPerCall(messages, () => serverKey.computeSecret(browserPublic))],
    ['HMAC-SHA256 keyed with a Buffer', cpuMicrosPerCall(messages * 10, hmacWithBuffer)],
    [
      'HMAC-SHA256 keyed with a KeyObject',
      cpuMicrosPerCall(messages * 10, () => createHmac('sha256', hmacKeyObject).update(data).digest()),
    ],
    [
      'HMAC-SHA256 keyed with a KeyObject made each call',
      cpuMicrosPerCall(messages * 10, () =>
        createHmac('sha256', createSecretKey(hmacKey)).update(data).digest(),
      ),
    ],
  ];
  // The burst's path: keys prepared ahead (as many as the calls, warm-up included), then one a message.
  const calls = messages + Math.ceil(messages / 10);
  const prepared = Buffer.alloc(calls * PREPARED_KEY_BYTES);
  let made = 0;
  let used = 0;
  const prepare = () => prepareMessageKey(browserPublic, browser.auth, prepared, made++ * PREPARED_KEY_BYTES);
  const payloadBytes = Buffer.from(payload);
  const sealWithPrepared = () =>
    sealPrepared(payloadBytes, prepared.subarray(used * PREPARED_KEY_BYTES, ++used * PREPARED_KEY_BYTES));
  const fresh = Buffer.alloc(SENDER_KEY_BYTES);
  const sealFresh = () => {
    makeSenderKey(browserPublic, fresh);
    return encryptPush(payload, browserPublic, browser.auth, fresh);
  };
  // In a thread: stack traces off.
  Error.stackTraceLimit = 0;
  let preparing: number;
  let sealingWhole: number;
  try {
    preparing = cpuMicrosPerCall(messages, prepare);
    sealingWhole = cpuMicrosPerCall(messages, sealFresh);
  } finally {
    Error.stackTraceLimit = limit;
  }
  rows.unshift(
    // On the delivery worker's event loop: stack traces on.
    [
      'seal with a key prepared ahead (a burst, on the event loop)',
      cpuMicrosPerCall(messages, sealWithPrepared),
    ],
    ['preparing a key (ECDH key pair and secret, salt, HKDF), in a thread', preparing],
    ['seal whole with a fresh key (http_ece), in a thread', sealingWhole],
  );
  Error.stackTraceLimit = 0;
  try {
    rows.splice(4, 0, ['generateRequestDetails, stack traces off', cpuMicrosPerCall(messages, seal)]);
    rows.push([
      'HMAC-SHA256 keyed with a Buffer, stack traces off',
      cpuMicrosPerCall(messages * 10, hmacWithBuffer),
    ]);
  } finally {
    Error.stackTraceLimit = limit;
  }

  printTable(
    `Seal benchmark: ${messages} messages of ${Buffer.byteLength(payload)} bytes, Node ${process.version} (µs of CPU a call)`,
    rows,
  );
  console.log(
    JSON.stringify({ messages, node: process.version, cpuMicrosPerCall: Object.fromEntries(rows) }),
  );
}
