import type { LiveEvent } from '@resort/shared';

export interface LiveStream {
  /** Every event received but "ready", in order, with its SSE id. */
  events: { id: string | null; data: LiveEvent }[];
  /** Resolves when the server listens for this stream (its "ready" event); rejects on an error. */
  connected: Promise<void>;
  close(): void;
}

/**
 * The live-events subscription as a browser's httpSubscriptionLink opens it: GET /trpc/live.events
 * with the input and the access token as tRPC connection params, read as server-sent events.
 */
export function openLiveStream(
  baseUrl: string,
  token: string,
  input: { scope?: 'mine' | 'all'; lastEventId?: string } = {},
): LiveStream {
  const controller = new AbortController();
  const events: LiveStream['events'] = [];
  let onConnected!: () => void;
  let onFailed!: (error: Error) => void;
  const connected = new Promise<void>((resolve, reject) => {
    onConnected = resolve;
    onFailed = reject;
  });
  const url =
    `${baseUrl}/trpc/live.events?input=${encodeURIComponent(JSON.stringify(input))}` +
    `&connectionParams=${encodeURIComponent(JSON.stringify({ token }))}`;
  void (async () => {
    try {
      const res = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
      if (!res.ok || !res.body) throw new Error(`live stream answered ${res.status}: ${await res.text()}`);
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          let event = 'message';
          let id: string | null = null;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (event === 'serialized-error') onFailed(new Error(data.join('\n')));
          else if (event === 'message' && data.length) {
            const parsed = JSON.parse(data.join('\n')) as LiveEvent;
            if (parsed.kind === 'ready') onConnected();
            else events.push({ id, data: parsed });
          }
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) onFailed(error as Error);
    }
  })();
  return { events, connected, close: () => controller.abort() };
}
