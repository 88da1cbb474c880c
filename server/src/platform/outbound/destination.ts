import {
  assertAddressesAllowed,
  blockedError,
  blockedReason,
  isAllowlistedName,
  literalAddress,
  parseAllowlist,
  type Resolver,
  systemResolver,
} from './address-guard.ts';
import { OutboundError } from './outbound-error.ts';

/**
 * Checks a webhook or Slack URL when it is saved, with the outbound guard's own rules, so a private
 * address is refused at once rather than at the first delivery. Throws OutboundError ('invalid_url'
 * or 'blocked'). A name that does not resolve now passes: the guard checks again at every send.
 */
export function createDestinationCheck(
  allowlistEntries: readonly string[],
  resolve: Resolver = systemResolver,
) {
  const allowlist = parseAllowlist(allowlistEntries);
  return async function checkDestination(raw: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundError('invalid_url', 'The URL is not valid.');
    }
    if (url.username || url.password) {
      throw new OutboundError('invalid_url', 'Credentials in the URL are not allowed; use a header instead.');
    }
    const literal = literalAddress(url.hostname);
    if (literal) {
      const reason = blockedReason(literal, allowlist);
      if (reason) throw blockedError(literal, literal, reason);
      return;
    }
    if (isAllowlistedName(url.hostname, allowlist)) return;
    let addresses: Awaited<ReturnType<Resolver>>;
    try {
      addresses = await resolve(url.hostname);
    } catch {
      return;
    }
    assertAddressesAllowed(url.hostname, addresses, allowlist);
  };
}
