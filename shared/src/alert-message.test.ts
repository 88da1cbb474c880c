import { describe, expect, it } from 'vitest';
import {
  alertMessageOf,
  escapeTelegramMarkdown,
  renderDiscordEmbed,
  renderMarkdown,
  renderPlainText,
  renderPush,
  renderTeamsCard,
} from './alert-message.ts';

const base = {
  message: 'Alert "Spring break" matched (Grand Floridian, party The Smiths): 2 rooms available at $689.',
  title: 'Spring break',
  partyName: 'The Smiths',
  alertId: '0b8c6a4e-0000-4000-8000-000000000001',
  timestamp: '2026-11-24T06:00:00.000Z',
  test: false,
  urgent: false,
  publicUrl: 'https://alerts.example.com/',
};

describe('one message model rendered per channel', () => {
  const m = alertMessageOf(base);

  it('names the alert, the party, what opened and the alert page', () => {
    expect(m.heading).toBe('Spring break');
    expect(m.text).toBe(base.message);
    expect(m.facts).toEqual([
      ['Alert', 'Spring break'],
      ['Party', 'The Smiths'],
      ['Sent', 'Tue, 24 Nov 2026 06:00:00 GMT'],
    ]);
    expect(m.link).toBe('https://alerts.example.com/alerts/0b8c6a4e-0000-4000-8000-000000000001');
  });

  it('has no link without a public URL or an alert, and a test heading for a test', () => {
    expect(alertMessageOf({ ...base, publicUrl: undefined }).link).toBeNull();
    const test = alertMessageOf({ ...base, alertId: null, title: null, partyName: null, test: true });
    expect(test.heading).toBe('Test notification');
    expect(test.link).toBeNull();
    expect(test.facts.map(([k]) => k)).toEqual(['Sent']);
  });

  it('says the same thing in every rendering', () => {
    const plain = renderPlainText(m);
    const telegram = renderMarkdown(m, 'telegram');
    const discord = renderMarkdown(m, 'discord');
    const card = JSON.stringify(renderTeamsCard(m));
    const push = renderPush(m);
    const embed = renderDiscordEmbed(m);
    for (const text of [plain, discord, card, JSON.stringify(push), JSON.stringify(embed)]) {
      expect(text).toContain('Spring break');
      expect(text).toContain('2 rooms available at $689');
      expect(text).toContain(m.link!);
    }
    // Telegram's MarkdownV2 escapes the reserved characters, the words stay.
    expect(telegram).toContain('2 rooms available at $689\\.');
    expect(telegram).toContain('*Spring break*');
    expect(telegram).toContain(`[Open the alert](${m.link})`);
    expect(push).toEqual({ title: 'Spring break', body: base.message, url: m.link });
    expect(plain).toBe(
      [
        'Spring break',
        '',
        base.message,
        '',
        'Alert: Spring break',
        'Party: The Smiths',
        'Sent: Tue, 24 Nov 2026 06:00:00 GMT',
        '',
        `Open the alert: ${m.link}`,
      ].join('\n'),
    );
  });

  it('escapes every MarkdownV2 reserved character for Telegram', () => {
    expect(escapeTelegramMarkdown('a_b*c[d]e(f)g~h`i>j#k+l-m=n|o{p}q.r!s\\t')).toBe(
      'a\\_b\\*c\\[d\\]e\\(f\\)g\\~h\\`i\\>j\\#k\\+l\\-m\\=n\\|o\\{p\\}q\\.r\\!s\\\\t',
    );
  });

  it('renders a Teams adaptive card in the message envelope with an open-URL action', () => {
    const card = renderTeamsCard(m) as {
      type: string;
      attachments: { contentType: string; content: Record<string, unknown> }[];
    };
    expect(card.type).toBe('message');
    expect(card.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const content = card.attachments[0]!.content as {
      type: string;
      body: { type: string; text?: string; facts?: { title: string; value: string }[] }[];
      actions: { type: string; url: string }[];
    };
    expect(content.type).toBe('AdaptiveCard');
    expect(content.body[0]).toMatchObject({ type: 'TextBlock', text: 'Spring break', weight: 'Bolder' });
    expect(content.body.find((b) => b.type === 'FactSet')?.facts).toContainEqual({
      title: 'Party',
      value: 'The Smiths',
    });
    expect(content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the alert', url: m.link }]);
  });

  it('marks an urgent message in its heading and Discord colour', () => {
    const urgent = alertMessageOf({ ...base, urgent: true });
    expect(urgent.heading).toBe('Urgent: Spring break');
    expect(renderDiscordEmbed(urgent).color).not.toBe(renderDiscordEmbed(m).color);
  });

  it('keeps Discord and push texts within their limits', () => {
    const long = alertMessageOf({ ...base, message: 'x'.repeat(5000) });
    expect(renderDiscordEmbed(long).description.length).toBeLessThanOrEqual(4096);
    expect(renderPush(long).body.length).toBeLessThanOrEqual(1000);
  });
});
