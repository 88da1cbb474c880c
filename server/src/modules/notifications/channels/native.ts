import {
  type DiscordConfig,
  type NtfyConfig,
  type PushoverConfig,
  renderDiscordEmbed,
  renderMarkdown,
  renderPush,
  renderTeamsCard,
  type TeamsConfig,
  type TelegramConfig,
} from '@resort/shared';
import { sendHttp } from './http-answer.ts';
import { modelOf } from './message-model.ts';
import type { OutboundRequester } from './outbound.ts';
import type { ChannelMessage, ChannelSender, ChannelTarget } from './types.ts';

export interface NativeChannelDeps {
  outbound: OutboundRequester;
  timeoutMs: number;
  now: () => Date;
  /** The app's public address: the alert page a message links to (PUBLIC_URL). */
  publicUrl: string | undefined;
}

/** Providers whose 4xx answers mean "this request is wrong": retrying the same request cannot help. */
const refusedForGood = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

function postJson(deps: NativeChannelDeps, url: string, receiver: string, body: unknown, headers = {}) {
  return sendHttp(
    deps.outbound,
    {
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      timeoutMs: deps.timeoutMs,
    },
    receiver,
    deps.now,
  );
}

/**
 * NTFY: publish as JSON (POST to the server's root with the topic in the body), the access token
 * as a bearer; priority 5 for urgent alerts, else the channel's; the click action opens the alert.
 */
export function createNtfySender(deps: NativeChannelDeps): ChannelSender {
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as NtfyConfig;
      const push = renderPush(modelOf(message, deps.publicUrl));
      await postJson(
        deps,
        config.url,
        'The ntfy server',
        {
          topic: config.topic,
          title: push.title,
          message: push.body,
          priority: message.urgent ? 5 : config.priority,
          ...(push.url ? { click: push.url } : {}),
          tags: [message.test ? 'white_check_mark' : message.urgent ? 'rotating_light' : 'tada'],
        },
        config.token ? { authorization: `Bearer ${config.token}` } : {},
      );
      return { note: null };
    },
  };
}

/** Emergency priority repeats every 60 s for an hour until acknowledged (Pushover: retry ≥ 30, expire ≤ 10800). */
const PUSHOVER_EMERGENCY = { retry: '60', expire: '3600' };

/**
 * PUSHOVER: POST {PUSHOVER_API_URL}/1/messages.json with the form fields token, user, title, message,
 * url and priority; an urgent alert is sent at emergency priority (2) with retry and expire.
 */
export function createPushoverSender(deps: NativeChannelDeps & { apiUrl: string }): ChannelSender {
  const url = `${deps.apiUrl.replace(/\/+$/, '')}/1/messages.json`;
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as PushoverConfig;
      const m = modelOf(message, deps.publicUrl);
      const push = renderPush(m);
      const form = new URLSearchParams({
        token: config.appToken,
        user: config.userKey,
        title: push.title,
        message: push.body,
        timestamp: String(Math.floor(new Date(message.metadata.timestamp).getTime() / 1000) || ''),
      });
      if (push.url) {
        form.set('url', push.url);
        form.set('url_title', m.linkLabel);
      }
      if (config.device) form.set('device', config.device);
      form.set('priority', message.urgent ? '2' : '0');
      if (message.urgent) for (const [k, v] of Object.entries(PUSHOVER_EMERGENCY)) form.set(k, v);
      await sendHttp(
        deps.outbound,
        {
          url,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          timeoutMs: deps.timeoutMs,
        },
        'Pushover',
        deps.now,
        refusedForGood,
      );
      return { note: null };
    },
  };
}

/**
 * TELEGRAM: the Bot API's sendMessage (POST {TELEGRAM_API_URL}/bot{token}/sendMessage) with the
 * MarkdownV2 rendering, never silent (an opening lasts minutes); link previews off.
 */
export function createTelegramSender(deps: NativeChannelDeps & { apiUrl: string }): ChannelSender {
  const base = deps.apiUrl.replace(/\/+$/, '');
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as TelegramConfig;
      await sendHttp(
        deps.outbound,
        {
          url: `${base}/bot${config.botToken}/sendMessage`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            chat_id: config.chatId,
            text: renderMarkdown(modelOf(message, deps.publicUrl), 'telegram'),
            parse_mode: 'MarkdownV2',
            disable_notification: false,
            link_preview_options: { is_disabled: true },
          }),
          timeoutMs: deps.timeoutMs,
        },
        'Telegram',
        deps.now,
        refusedForGood,
      );
      return { note: null };
    },
  };
}

/** DISCORD: an execute-webhook call with one embed; mentions in the text ping nobody. */
export function createDiscordSender(deps: NativeChannelDeps): ChannelSender {
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as DiscordConfig;
      const url = new URL(config.url);
      url.searchParams.set('wait', 'true');
      await postJson(deps, url.toString(), 'Discord', {
        ...(config.username ? { username: config.username } : {}),
        embeds: [renderDiscordEmbed(modelOf(message, deps.publicUrl))],
        allowed_mentions: { parse: [] },
      });
      return { note: null };
    },
  };
}

/** TEAMS: an incoming webhook or workflow URL receives a message holding one adaptive card. */
export function createTeamsSender(deps: NativeChannelDeps): ChannelSender {
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as TeamsConfig;
      await postJson(deps, config.url, 'Teams', renderTeamsCard(modelOf(message, deps.publicUrl)));
      return { note: null };
    },
  };
}
