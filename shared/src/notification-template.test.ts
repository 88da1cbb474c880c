import { describe, expect, it } from 'vitest';
import { renderBodyTemplate, type TemplateContext } from './notification-template.ts';

const context: TemplateContext = {
  message: 'Room "Deluxe" open\nbook now',
  registrationId: 'reg-1',
  templateId: 'tpl-9',
  metadata: { timestamp: '2030-01-02T03:04:05.000Z', count: 3, values: { price: 120 } },
};

describe('renderBodyTemplate', () => {
  it('fills placeholders inside a JSON template and keeps it valid JSON whatever the message holds', () => {
    const out = renderBodyTemplate('{"content": "{{message}}", "at": "{{ metadata.timestamp }}"}', context);
    expect(out.kind).toBe('json');
    expect(JSON.parse((out as { text: string }).text)).toEqual({
      content: 'Room "Deluxe" open\nbook now',
      at: '2030-01-02T03:04:05.000Z',
    });
  });

  it('puts a number or object itself where a JSON string is exactly one placeholder', () => {
    const out = renderBodyTemplate(
      '{"n": "{{metadata.count}}", "v": "{{metadata.values}}", "r": "{{registrationId}}"}',
      context,
    );
    expect(JSON.parse((out as { text: string }).text)).toEqual({ n: 3, v: { price: 120 }, r: 'reg-1' });
  });

  it('sends as JSON a template that only parses once rendered', () => {
    const out = renderBodyTemplate('{"count": {{metadata.count}}, "t": "{{templateId}}"}', context);
    expect(out).toEqual({ kind: 'json', text: '{"count": 3, "t": "tpl-9"}' });
  });

  it('sends text when the rendered template is not JSON', () => {
    expect(renderBodyTemplate('Alert {{registrationId}}: {{message}}', context)).toEqual({
      kind: 'text',
      text: 'Alert reg-1: Room "Deluxe" open\nbook now',
    });
  });

  it('renders unknown and missing placeholders as empty text', () => {
    const out = renderBodyTemplate('[{{nope}}] [{{metadata.missing.deep}}] [{{templateId}}]', {
      ...context,
      templateId: null,
    });
    expect(out).toEqual({ kind: 'text', text: '[] [] []' });
  });

  it('sends nothing for a blank template or one that renders blank', () => {
    expect(renderBodyTemplate('', context)).toEqual({ kind: 'none' });
    expect(renderBodyTemplate('   \n', context)).toEqual({ kind: 'none' });
    expect(renderBodyTemplate(undefined, context)).toEqual({ kind: 'none' });
    expect(renderBodyTemplate('{{nope}}', context)).toEqual({ kind: 'none' });
  });
});
