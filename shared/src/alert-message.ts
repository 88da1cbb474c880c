/**
 * The one message model of a notification (what opened, for which alert and party, the link) and
 * its renderings per channel: plain text (e-mail, SMS, ntfy, Pushover), Markdown (Telegram's
 * MarkdownV2, Discord), an adaptive card (Teams) and title/body/click (push). Every channel says the
 * same thing because every channel renders this model. Pure, so the client can preview it.
 */
export interface AlertMessageInput {
  /** The engine's sentence: what matched, in words. */
  message: string;
  title: string | null;
  partyName: string | null;
  alertId: string | null;
  /** ISO 8601: the moment of the event. */
  timestamp: string;
  test: boolean;
  urgent: boolean;
  /** The app's public address (PUBLIC_URL); without it the message carries no link. */
  publicUrl?: string | null | undefined;
}

export interface AlertMessage {
  heading: string;
  text: string;
  facts: [string, string][];
  link: string | null;
  linkLabel: string;
  test: boolean;
  urgent: boolean;
}

const LINK_LABEL = 'Open the alert';
const PUSH_BODY_MAX = 1000;
const DISCORD_DESCRIPTION_MAX = 4096;
const DISCORD_TITLE_MAX = 256;

export function alertMessageOf(input: AlertMessageInput): AlertMessage {
  const name = input.title ?? input.partyName;
  const base = input.test ? 'Test notification' : (name ?? 'Availability alert');
  const facts: [string, string][] = [];
  if (input.title && !input.test) facts.push(['Alert', input.title]);
  if (input.partyName && !input.test) facts.push(['Party', input.partyName]);
  const sent = new Date(input.timestamp);
  facts.push(['Sent', Number.isNaN(sent.getTime()) ? input.timestamp : sent.toUTCString()]);
  const origin = input.publicUrl ? input.publicUrl.replace(/\/+$/, '') : null;
  return {
    heading: input.urgent && !input.test ? `Urgent: ${base}` : base,
    text: input.message,
    facts,
    link: origin && input.alertId && !input.test ? `${origin}/alerts/${input.alertId}` : null,
    linkLabel: LINK_LABEL,
    test: input.test,
    urgent: input.urgent,
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function renderPlainText(m: AlertMessage): string {
  const lines = [m.heading, '', m.text, '', ...m.facts.map(([k, v]) => `${k}: ${v}`)];
  if (m.link) lines.push('', `${m.linkLabel}: ${m.link}`);
  return lines.join('\n');
}

/** Telegram MarkdownV2: every reserved character outside an entity is escaped with a backslash. */
export function escapeTelegramMarkdown(text: string): string {
  return text.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, (c) => `\\${c}`);
}

/** Discord Markdown: emphasis, strike, code, quotes and link brackets are escaped. */
function escapeDiscordMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>[\]()#-]/g, (c) => `\\${c}`);
}

export function renderMarkdown(m: AlertMessage, dialect: 'telegram' | 'discord'): string {
  const esc = dialect === 'telegram' ? escapeTelegramMarkdown : escapeDiscordMarkdown;
  // Inside a link's parentheses Telegram wants only ) and \ escaped.
  const url = (u: string) => (dialect === 'telegram' ? u.replace(/[)\\]/g, (c) => `\\${c}`) : u);
  const lines = [
    `*${esc(m.heading)}*`,
    '',
    esc(m.text),
    '',
    ...m.facts.map(([k, v]) => `${esc(k)}: ${esc(v)}`),
  ];
  if (m.link) lines.push('', `[${esc(m.linkLabel)}](${url(m.link)})`);
  return lines.join('\n');
}

/** A Discord webhook embed (title, description, link, fields, colour). */
export function renderDiscordEmbed(m: AlertMessage) {
  return {
    title: cut(m.heading, DISCORD_TITLE_MAX),
    description: cut(escapeDiscordMarkdown(m.text), DISCORD_DESCRIPTION_MAX),
    ...(m.link ? { url: m.link } : {}),
    // Red for urgent, the brand blue otherwise.
    color: m.urgent ? 0xd32f2f : 0x1c7ed6,
    fields: m.facts
      .filter(([k]) => k !== 'Sent')
      .map(([name, value]) => ({ name, value: cut(value, 1024), inline: true })),
    ...(m.link ? { footer: { text: `${m.linkLabel}: ${m.link}` } } : {}),
  };
}

/** A Teams message holding one adaptive card: heading, text, facts and an open-URL action. */
export function renderTeamsCard(m: AlertMessage) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: m.heading,
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              ...(m.urgent ? { color: 'Attention' } : {}),
            },
            { type: 'TextBlock', text: m.text, wrap: true },
            { type: 'FactSet', facts: m.facts.map(([title, value]) => ({ title, value })) },
          ],
          actions: m.link ? [{ type: 'Action.OpenUrl', title: m.linkLabel, url: m.link }] : [],
        },
      },
    ],
  };
}

/** What a push notification shows: a title, a body, and the page a tap opens. */
export function renderPush(m: AlertMessage): { title: string; body: string; url: string | null } {
  return { title: m.heading, body: cut(m.text, PUSH_BODY_MAX), url: m.link };
}
