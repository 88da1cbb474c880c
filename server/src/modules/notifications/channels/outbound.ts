import { type OutboundClient, OutboundError } from '../../../platform/outbound/outbound-client.ts';
import { DeliveryError } from './types.ts';

/** The part of the guarded outbound client the channels use. */
export type OutboundRequester = Pick<OutboundClient, 'request'>;

/** An outbound failure as a delivery failure: a refused or invalid address is permanent, the rest retry. */
export function toOutboundFailure(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (error instanceof OutboundError) {
    const badDestination = error.kind === 'blocked' || error.kind === 'invalid_url';
    return new DeliveryError(error.message, { permanent: badDestination, badDestination, cause: error });
  }
  throw error;
}
