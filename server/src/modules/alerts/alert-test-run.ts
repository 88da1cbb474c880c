import {
  type AlertTestInput,
  type AlertTestResult,
  type BuiltRequest,
  buildRequest,
  earliestToday,
  evaluateWatch,
  expandStayWindows,
  readTemplateStay,
  stayOverrides,
} from '@resort/shared';
import { OutboundError, type OutboundResponse } from '../../platform/outbound/outbound-client.ts';
import { toRequestTemplate } from '../templates/templates.service.ts';
import type { TemplateForAlert } from './alerts.repo.ts';

export type SendRequest = (req: BuiltRequest) => Promise<OutboundResponse>;

/**
 * The request an alert sends: the shared builder over the template and the alert's own values. A
 * flexible-dates alert sends its first stay (the engine checks each in turn).
 */
function buildAlertRequest(
  template: TemplateForAlert,
  alert: Pick<AlertTestInput, 'customHeaders' | 'customQuery' | 'customBody' | 'overrides' | 'stayWindow'>,
): BuiltRequest {
  const stay = readTemplateStay(template.stay);
  const first =
    alert.stayWindow && stay ? expandStayWindows(alert.stayWindow, earliestToday())[0] : undefined;
  return buildRequest(toRequestTemplate(template), {
    customHeaders: alert.customHeaders,
    customQuery: alert.customQuery,
    customBody: alert.customBody ?? undefined,
    overrides: first && stay ? stayOverrides(alert.overrides ?? {}, stay, first) : alert.overrides,
  });
}

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * The alert test: the prepared payload built as the poller builds it, sent once, and its rules
 * evaluated on the answer with no previous poll. availabilityOpen means the upstream answered 2xx
 * and the rules matched (with no rules, the 2xx alone). An upstream failure is reported, not thrown.
 */
export async function runAlertTest(
  send: SendRequest,
  template: TemplateForAlert,
  input: AlertTestInput,
): Promise<AlertTestResult> {
  const request = buildAlertRequest(template, input);
  const started = performance.now();
  try {
    const res = await send(request);
    const rules = input.watchConfig;
    const hasRules = !!rules && rules.all.length + rules.any.length > 0;
    const data = res.json !== undefined ? res.json : res.text;
    const watch = hasRules ? { matched: evaluateWatch(rules, data, null).matched } : null;
    const success = is2xx(res.status);
    return {
      success,
      statusCode: res.status,
      durationMs: res.durationMs,
      availabilityOpen: success && (watch ? watch.matched : true),
      watch,
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return {
      success: false,
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      availabilityOpen: false,
      watch: null,
      error: error.message,
    };
  }
}
