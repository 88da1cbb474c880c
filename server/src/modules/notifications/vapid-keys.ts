import webPush from 'web-push';
import type { Database } from '../../db/database.ts';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 public key: what browsers subscribe with. */
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair of Web Push, generated once and kept in the database like the JWT signing
 * secret (app_secrets), so every process signs with the same key and subscriptions outlive restarts.
 */
export async function loadVapidKeys(db: Database): Promise<VapidKeys> {
  const generated = webPush.generateVAPIDKeys();
  await db
    .insertInto('app_secrets')
    .values({ name: 'vapid_keys', value: JSON.stringify(generated) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'vapid_keys')
    .executeTakeFirstOrThrow();
  const keys = JSON.parse(row.value) as VapidKeys;
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
