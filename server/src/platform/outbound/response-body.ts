import type { Readable } from 'node:stream';
import { OutboundError } from './outbound-error.ts';

/** Stops a body mid-stream; its abort error is expected, so it must not surface as unhandled. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError('too_large', `The response is larger than the ${maxBytes}-byte limit.`);
}

/** Reads a body up to maxBytes; beyond that the stream is destroyed and 'too_large' thrown. */
export async function readCapped(body: Readable, maxBytes: number, contentLength?: string): Promise<Buffer> {
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    discard(body);
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > maxBytes) {
      discard(body);
      throw tooLarge(maxBytes);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

function charsetOf(contentType: string | undefined): string {
  const match = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1] ?? 'utf-8';
}

export function decodeText(bytes: Buffer, contentType: string | undefined): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 is the web's default and the best guess.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** The parsed body when it is JSON (by content type or because it parses), else undefined. */
export function decodeJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** undici's header map (arrays for repeated headers) flattened to one string per name. */
export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
