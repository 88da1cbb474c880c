import type { BuiltRequest } from '@resort/shared';
import type { OutboundClient, OutboundResponse, ProxyTarget } from './outbound-client.ts';

/**
 * Sends what the shared request builder built through the guarded outbound client. Object and
 * array bodies go as JSON (with a JSON content type unless the template set one); text and bytes
 * go as they are. The template live test, the alert test and the engine all send through here.
 */
export function sendBuiltRequest(
  outbound: Pick<OutboundClient, 'request'>,
  req: BuiltRequest,
  options: { proxy?: ProxyTarget | null; timeoutMs?: number } = {},
): Promise<OutboundResponse> {
  const headers = { ...req.headers };
  let body: string | Uint8Array | undefined;
  if (typeof req.body === 'string' || req.body instanceof Uint8Array) {
    body = req.body;
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  return outbound.request({
    url: req.url,
    method: req.method,
    headers,
    body,
    proxy: options.proxy ?? null,
    timeoutMs: options.timeoutMs,
  });
}
