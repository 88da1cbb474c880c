import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { STRONG_PASSWORD, type TestUser, uniqueEmail } from '../factories.ts';
import type { CallPlan } from './surfaces.ts';
import type { World } from './world.ts';

/**
 * Who may call each procedure, written out by hand. The matrix test reads the router and fails for a
 * procedure with no entry here, so a new procedure cannot ship without someone deciding its access.
 */
export interface AccessExpectation {
  access: 'public' | 'user' | 'admin' | 'super_admin';
  /**
   * The input names a resource of one user: its owner may use it, any other caller is answered 404
   * (indistinguishable from a missing one).
   */
  owned?: true;
  /**
   * A valid call for `owner` (null: signed out), building what it needs through the API. An allowed
   * caller must get a 2xx answer to it; a refused one the refusal, so the input is never the reason.
   */
  plan?: (w: World, owner: TestUser | null) => Promise<CallPlan> | CallPlan;
}

const tag = () => randomBytes(4).toString('hex');
const randomHost = () => `proxy-${randomBytes(4).toString('hex')}.example.net`;

async function createProxy(w: World): Promise<string> {
  const proxy = await w.api<{ id: string }>(w.setup, 'POST', '/api/proxies', {
    host: randomHost(),
    port: 8080,
    protocol: 'http',
    isActive: true,
  });
  return proxy.id;
}

/** A template whose upstream is a refused address: a live test answers at once, with the refusal. */
async function createTemplate(w: World): Promise<string> {
  const template = await w.api<{ id: string }>(w.setup, 'POST', '/api/templates', {
    name: `Matrix template ${tag()}`,
    resortCode: 'MTX',
    targetUrl: 'http://10.255.255.1/availability',
    method: 'GET',
    responseWatchPresets: {
      all: [{ id: 'rooms', label: 'Rooms listed', condition: { path: 'rooms', operator: 'exists' } }],
    },
  });
  return template.id;
}

async function createGroup(w: World): Promise<string> {
  const group = await w.api<{ id: string }>(w.setup, 'POST', '/api/template-groups', {
    name: `Matrix group ${tag()}`,
  });
  return group.id;
}

/** A Slack channel of `owner` (a public literal address, so saving it resolves nothing). */
async function createChannel(w: World, owner: TestUser): Promise<string> {
  const service = await w.api<{ id: string }>(owner, 'POST', '/api/users/me/notification-services', {
    type: 'SLACK_WEBHOOK',
    label: `Matrix ${tag()}`,
    config: { url: 'https://93.184.215.14/services/T000/B000/matrix' },
  });
  return service.id;
}

const ownerOf = (w: World, owner: TestUser | null) => owner ?? w.user;

let passwordHash: Promise<string> | undefined;

/**
 * A fresh account of `role` with a session's access token, written directly: the matrix makes
 * dozens, more than registration's hourly budget for one client address allows.
 */
async function freshAccount(w: World, role: 'user' | 'admin' | 'super_admin'): Promise<TestUser> {
  passwordHash ??= hashPassword(STRONG_PASSWORD);
  const email = uniqueEmail('matrix-target');
  const roles = role === 'user' ? ['user'] : ['user', role];
  const row = await w.t.db
    .insertInto('users')
    .values({ email, name: 'Matrix Target', password_hash: await passwordHash, roles })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { accessToken } = await w.t.services.tokens.issueAccessToken({ id: row.id, roles });
  return { id: row.id, email, token: accessToken, password: STRONG_PASSWORD, refreshCookie: undefined };
}

/** A fresh planner, for admin actions that change or end an account. */
const freshPlanner = (w: World) => freshAccount(w, 'user');

/** A fresh account with the role of the matrix account `owner`, for a call that ends the caller's account. */
function freshLike(w: World, owner: TestUser | null): Promise<TestUser> {
  return freshAccount(w, owner === w.admin ? 'admin' : owner === w.superAdmin ? 'super_admin' : 'user');
}

/** The owner's SMS channel, unverified (found or made: one SMS channel per account). */
async function unverifiedSms(w: World, owner: TestUser): Promise<string> {
  const list = await w.api<{ id: string; type: string }[]>(
    owner,
    'GET',
    '/api/users/me/notification-services',
  );
  const id =
    list.find((s) => s.type === 'SMS')?.id ??
    (
      await w.api<{ id: string }>(owner, 'POST', '/api/users/me/notification-services', {
        type: 'SMS',
        config: { toNumber: '+15550199' },
      })
    ).id;
  await w.t.db
    .updateTable('notification_services')
    .set({ verified_at: null, verified_via: null })
    .where('id', '=', id)
    .execute();
  return id;
}

/** An invitation's token, from the link `setup` creates. */
async function invitationToken(w: World): Promise<{ id: string; token: string }> {
  const created = await w.api<{ id: string; url: string }>(w.setup, 'POST', '/api/admin/invitations', {
    role: 'user',
  });
  return { id: created.id, token: created.url.split('#invitation=')[1]! };
}

/** The template every matrix alert watches, made once per world. */
const alertTemplates = new WeakMap<World, Promise<string>>();
function alertTemplate(w: World): Promise<string> {
  let id = alertTemplates.get(w);
  if (!id) {
    id = createTemplate(w);
    alertTemplates.set(w, id);
  }
  return id;
}

async function alertPayload(w: World) {
  return {
    templateId: await alertTemplate(w),
    title: `Matrix alert ${tag()}`,
    watchConfig: { all: [{ path: 'rooms', operator: 'exists', presetId: 'rooms' }], any: [] },
  };
}

/** An alert of `owner`, created through the API. */
async function createAlert(w: World, owner: TestUser): Promise<string> {
  const alert = await w.api<{ id: string }>(owner, 'POST', '/api/registrations', await alertPayload(w));
  return alert.id;
}

async function createWatchlist(w: World, owner: TestUser, alertIds: string[] = []): Promise<string> {
  const watchlist = await w.api<{ id: string }>(owner, 'POST', '/api/watchlists', {
    name: `Matrix ${tag()}`,
  });
  if (alertIds.length) {
    await w.api(owner, 'POST', `/api/watchlists/${watchlist.id}/registrations`, {
      registrationIds: alertIds,
    });
  }
  return watchlist.id;
}

async function createArchivedAlert(w: World, owner: TestUser): Promise<string> {
  const id = await createAlert(w, owner);
  await w.api(owner, 'POST', '/api/archive', { registrationIds: [id] });
  return id;
}

export const accessExpectations: Record<string, AccessExpectation> = {
  'health.get': { access: 'public' },

  'auth.register': {
    access: 'public',
    plan: () => ({
      input: { name: 'Matrix Signup', email: uniqueEmail('matrix'), password: STRONG_PASSWORD },
    }),
  },
  'auth.login': {
    access: 'public',
    plan: (w, owner) => ({ input: { email: (owner ?? w.user).email, password: STRONG_PASSWORD } }),
  },
  'auth.refresh': {
    access: 'public',
    plan: async (w, owner) => ({ refreshCookie: await w.freshSession(owner ?? w.user) }),
  },
  'auth.logout': {
    access: 'public',
    plan: async (w, owner) => ({ refreshCookie: await w.freshSession(owner ?? w.user) }),
  },
  'auth.me': { access: 'user' },
  'auth.options': { access: 'public' },
  'auth.invitation': {
    access: 'public',
    plan: async (w) => ({ input: { token: (await invitationToken(w)).token } }),
  },
  'auth.forgotPassword': { access: 'public', plan: () => ({ input: { email: uniqueEmail('matrix') } }) },
  'auth.resetPassword': {
    access: 'public',
    plan: async (w) => {
      const target = await freshPlanner(w);
      const link = await w.api<{ url: string }>(
        w.setup,
        'POST',
        `/api/admin/users/${target.id}/password-reset`,
      );
      return { input: { token: link.url.split('#token=')[1], password: STRONG_PASSWORD } };
    },
  },
  'auth.changePassword': {
    access: 'user',
    // The same password again keeps every matrix account usable for the next cell.
    plan: () => ({ input: { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD } }),
  },

  'users.me': { access: 'user' },
  'users.updateProfile': {
    access: 'user',
    plan: (w) => ({ input: { headline: `Matrix headline ${w.next()}` } }),
  },

  'users.preferences': { access: 'user' },
  'users.export': { access: 'user' },
  'users.deleteAccount': {
    access: 'user',
    plan: async (w, owner) => ({
      input: { password: STRONG_PASSWORD },
      token: (await freshLike(w, owner)).token,
    }),
  },

  'adminUsers.list': { access: 'admin', plan: () => ({ input: { search: 'matrix' } }) },
  'adminUsers.get': { access: 'admin', plan: (w) => ({ input: { id: w.user.id } }) },
  'adminUsers.setDisabled': {
    access: 'admin',
    plan: async (w) => ({ input: { id: (await freshPlanner(w)).id, disabled: true } }),
  },
  'adminUsers.setLevel': {
    access: 'super_admin',
    plan: async (w) => ({ input: { id: (await freshPlanner(w)).id, level: 'admin' } }),
  },
  'adminUsers.remove': {
    access: 'admin',
    plan: async (w) => ({ input: { id: (await freshPlanner(w)).id } }),
  },
  'adminUsers.issuePasswordReset': {
    access: 'admin',
    plan: async (w) => ({ input: { id: (await freshPlanner(w)).id } }),
  },
  'signupSettings.get': { access: 'admin' },
  'signupSettings.set': { access: 'super_admin', plan: () => ({ input: { policy: 'open' } }) },
  'invitations.list': { access: 'admin' },
  'invitations.create': { access: 'admin', plan: () => ({ input: { role: 'user' } }) },
  'invitations.revoke': {
    access: 'admin',
    plan: async (w) => ({ input: { id: (await invitationToken(w)).id } }),
  },
  'users.updatePreferences': { access: 'user', plan: () => ({ input: { push: true } }) },

  // Watchlists, the archive and the dashboard summary: only ever the caller's own.
  'watchlists.list': { access: 'user' },
  'watchlists.create': {
    access: 'user',
    plan: () => ({ input: { name: `Matrix ${tag()}`, quarter: 'Q3' } }),
  },
  'watchlists.get': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createWatchlist(w, ownerOf(w, owner)) } }),
  },
  'watchlists.update': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: { id: await createWatchlist(w, ownerOf(w, owner)), notes: 'Edited' },
    }),
  },
  'watchlists.remove': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createWatchlist(w, ownerOf(w, owner)) } }),
  },
  'watchlists.alerts': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createWatchlist(w, ownerOf(w, owner)) } }),
  },
  'watchlists.addAlerts': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: {
        id: await createWatchlist(w, ownerOf(w, owner)),
        registrationIds: [await createAlert(w, ownerOf(w, owner))],
      },
    }),
  },
  'watchlists.removeAlert': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => {
      const alertId = await createAlert(w, ownerOf(w, owner));
      return {
        input: { id: await createWatchlist(w, ownerOf(w, owner), [alertId]), registrationId: alertId },
      };
    },
  },
  'archive.list': { access: 'user' },
  'archive.archive': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { registrationIds: [await createAlert(w, ownerOf(w, owner))] } }),
  },
  'archive.restore': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: { registrationIds: [await createArchivedAlert(w, ownerOf(w, owner))] },
    }),
  },
  'archive.purge': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: { registrationIds: [await createArchivedAlert(w, ownerOf(w, owner))] },
    }),
  },
  'dashboard.summary': { access: 'user' },

  'proxies.list': { access: 'admin' },
  'proxies.create': {
    access: 'admin',
    plan: () => ({ input: { host: randomHost(), port: 3128, protocol: 'http', isActive: false } }),
  },
  'proxies.update': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createProxy(w), isActive: false } }),
  },
  'proxies.remove': { access: 'admin', plan: async (w) => ({ input: { id: await createProxy(w) } }) },
  'proxies.resetFailures': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createProxy(w) } }),
  },
  'proxies.bulkStatus': {
    access: 'admin',
    plan: async (w) => ({ input: { isActive: true, ids: [await createProxy(w)] } }),
  },
  'proxies.import': {
    access: 'admin',
    plan: () => ({ input: { text: `${randomHost()}:8080`, activateByDefault: false } }),
  },

  'templates.list': { access: 'user' },
  'templates.get': { access: 'user', plan: async (w) => ({ input: { id: await createTemplate(w) } }) },
  'templates.create': {
    access: 'admin',
    plan: () => ({
      input: { name: `Matrix ${tag()}`, resortCode: 'MTX', targetUrl: 'https://93.184.215.14/rooms' },
    }),
  },
  'templates.update': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createTemplate(w), description: 'Edited by the matrix' } }),
  },
  'templates.delete': { access: 'admin', plan: async (w) => ({ input: { id: await createTemplate(w) } }) },
  'templates.test': { access: 'admin', plan: async (w) => ({ input: { id: await createTemplate(w) } }) },
  'templates.generators': { access: 'admin' },
  'templates.generatorSample': {
    access: 'admin',
    plan: () => ({ input: { id: 'resort-room-availability' } }),
  },

  'templateGroups.list': { access: 'user' },
  'templateGroups.get': { access: 'user', plan: async (w) => ({ input: { id: await createGroup(w) } }) },
  'templateGroups.create': { access: 'admin', plan: () => ({ input: { name: `Matrix group ${tag()}` } }) },
  'templateGroups.update': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createGroup(w), displayOrder: 7 } }),
  },
  'templateGroups.delete': { access: 'admin', plan: async (w) => ({ input: { id: await createGroup(w) } }) },

  'notificationServices.list': { access: 'user' },
  'notificationServices.webPushKey': { access: 'user' },
  'notificationServices.quietHours': { access: 'user' },
  'notificationServices.setQuietHours': {
    access: 'user',
    plan: () => ({
      input: { enabled: true, start: '22:00', end: '07:00', timeZone: 'Europe/Paris', serviceIds: null },
    }),
  },
  'notificationServices.create': {
    access: 'user',
    plan: () => ({
      input: {
        type: 'SLACK_WEBHOOK',
        label: `Matrix ${tag()}`,
        config: { url: 'https://93.184.215.14/services/T1/B1/x' },
      },
    }),
  },
  'notificationServices.update': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: { id: await createChannel(w, ownerOf(w, owner)), label: 'Renamed by the matrix' },
    }),
  },
  'notificationServices.setActive': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createChannel(w, ownerOf(w, owner)), isActive: false } }),
  },
  'notificationServices.remove': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createChannel(w, ownerOf(w, owner)) } }),
  },
  'notificationServices.rotateSecret': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createChannel(w, ownerOf(w, owner)) } }),
  },
  'notificationServices.test': {
    access: 'user',
    // With an id the test borrows that saved service's signing secret: only the owner's may be named.
    // E-mail goes only to a verified address: the owner's own, verified here.
    owned: true,
    plan: async (w, owner) => {
      const who = ownerOf(w, owner);
      await w.t.db
        .updateTable('users')
        .set({ email_verified_at: new Date() })
        .where('id', '=', who.id)
        .execute();
      return {
        input: {
          id: await createChannel(w, who),
          type: 'EMAIL',
          label: 'Matrix test',
          config: { toEmail: who.email },
        },
      };
    },
  },
  'notificationServices.sendVerificationCode': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await unverifiedSms(w, ownerOf(w, owner)) } }),
  },
  'notificationServices.verify': {
    access: 'user',
    owned: true,
    // The code the owner would read from the message, stored as the server stores one.
    plan: async (w, owner) => {
      const id = await unverifiedSms(w, ownerOf(w, owner));
      await w.t.db
        .updateTable('notification_services')
        .set({
          verification_code_hash: createHash('sha256').update(`${id}:123456`).digest('base64url'),
          verification_expires_at: new Date(Date.now() + 600_000),
          verification_attempts: 0,
        })
        .where('id', '=', id)
        .execute();
      return { input: { id, code: '123456' } };
    },
  },
  'notifications.history': { access: 'user', plan: () => ({ input: { limit: 10 } }) },

  'apiTokens.list': { access: 'user' },
  'apiTokens.create': {
    access: 'user',
    plan: () => ({ input: { name: `Matrix token ${tag()}`, scope: 'read-only' } }),
  },
  'apiTokens.revoke': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: {
        id: (
          await w.api<{ apiToken: { id: string } }>(ownerOf(w, owner), 'POST', '/api/users/me/api-tokens', {
            name: `Matrix token ${tag()}`,
            scope: 'read-only',
          })
        ).apiToken.id,
      },
    }),
  },

  'alerts.list': { access: 'user' },
  'alerts.get': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createAlert(w, ownerOf(w, owner)) } }),
  },
  'alerts.create': { access: 'user', plan: async (w) => ({ input: await alertPayload(w) }) },
  'alerts.update': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createAlert(w, ownerOf(w, owner)), status: 'BOOKED' } }),
  },
  'alerts.remove': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createAlert(w, ownerOf(w, owner)) } }),
  },
  'alerts.snooze': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({
      input: {
        id: await createAlert(w, ownerOf(w, owner)),
        until: new Date(Date.now() + 3600_000).toISOString(),
      },
    }),
  },
  'alerts.test': { access: 'user', plan: async (w) => ({ input: await alertPayload(w) }) },

  'alertInsight.get': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createAlert(w, ownerOf(w, owner)) } }),
  },
  'alertInsight.checkNow': {
    access: 'user',
    owned: true,
    plan: async (w, owner) => ({ input: { id: await createAlert(w, ownerOf(w, owner)) } }),
  },
  'alertInsight.adminGet': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createAlert(w, w.user) } }),
  },
  'alertInsight.adminCheckNow': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createAlert(w, w.user) } }),
  },
  // A subscription (a stream that stays open): its access is tested in test/live/live-events.int.test.ts.
  'live.events': { access: 'user' },

  'adminAlerts.list': { access: 'admin' },
  // Admins reach any user's alert: the plan always builds one of the matrix user's.
  'adminAlerts.get': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createAlert(w, w.user) } }),
  },
  'adminAlerts.update': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createAlert(w, w.user), status: 'DISABLED' } }),
  },
  'adminAlerts.remove': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createAlert(w, w.user) } }),
  },
};
