/**
 * Webhook body templates: placeholders {{message}}, {{registrationId}}, {{templateId}}
 * and {{metadata.…}} are filled in; the result is sent as JSON when it parses, as text otherwise,
 * and not at all when blank. Pure, so the settings form can preview exactly what will be sent.
 */
export interface TemplateContext {
  message: string;
  registrationId: string | null;
  templateId: string | null;
  metadata: Record<string, unknown>;
}

export type RenderedBody = { kind: 'none' } | { kind: 'json'; text: string } | { kind: 'text'; text: string };

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s*\}\}/g;
const EXACT_PLACEHOLDER = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s*\}\}$/;

function lookup(context: TemplateContext, path: string): unknown {
  let value: unknown = context;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

function fillText(text: string, context: TemplateContext): string {
  return text.replace(PLACEHOLDER, (_, path: string) => asText(lookup(context, path)));
}

/**
 * Inside a JSON template, placeholders are filled within string values, so a message holding quotes
 * or line breaks stays valid JSON. A string that is exactly one placeholder of a number, boolean,
 * object or array takes that value itself.
 */
function fillJson(value: unknown, context: TemplateContext): unknown {
  if (typeof value === 'string') {
    const exact = EXACT_PLACEHOLDER.exec(value);
    if (exact) {
      const raw = lookup(context, exact[1]!);
      if (raw !== null && raw !== undefined && typeof raw !== 'string') return raw;
    }
    return fillText(value, context);
  }
  if (Array.isArray(value)) return value.map((v) => fillJson(v, context));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillJson(v, context)]));
  }
  return value;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function renderBodyTemplate(
  template: string | null | undefined,
  context: TemplateContext,
): RenderedBody {
  if (!template || template.trim() === '') return { kind: 'none' };
  const trimmed = template.trim();
  if (parses(trimmed)) {
    return { kind: 'json', text: JSON.stringify(fillJson(JSON.parse(trimmed), context)) };
  }
  const rendered = fillText(template, context);
  if (rendered.trim() === '') return { kind: 'none' };
  return parses(rendered.trim()) ? { kind: 'json', text: rendered.trim() } : { kind: 'text', text: rendered };
}
