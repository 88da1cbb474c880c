/**
 * Makes outside text storable by PostgreSQL (docs/decisions.md, "Storable text"). PostgreSQL's text
 * cannot hold U+0000 and jsonb refuses the `\u0000` escape and lone UTF-16 surrogates, so one such
 * character from a receiver, an SMTP server, a proxy or an upstream would fail the whole statement
 * that carries it. Both become U+FFFD, the replacement character, wherever outside text enters storage.
 */

const REPLACEMENT = '\uFFFD';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with U+0000 and lone surrogates replaced by U+FFFD; the same string when it has none. */
export function storableText(text: string): string {
  const withoutNul = text.includes('\0') ? text.replaceAll('\0', REPLACEMENT) : text;
  return withoutNul.replace(LONE_SURROGATE, REPLACEMENT);
}

/** Like storableText, and null stays null. */
export function storableTextOrNull(text: string | null | undefined): string | null {
  return text == null ? null : storableText(text);
}

/**
 * A JSON value whose strings and keys are all storable (storableText); the same value, not a copy,
 * when nothing needed replacing. Plain objects and arrays are walked; other values (numbers, dates, …)
 * are kept as they are. Two keys that differ only by an unstorable character become one: the later wins.
 */
export function storableJson<T>(value: T): T {
  return walk(value) as T;
}

/** A JSON escape of U+0000 or of a surrogate (lone or paired; storableJson tells them apart). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * storableJson for a value JSON.parse read from `text`, text decoded by a TextDecoder (which leaves
 * no lone surrogate: it replaces them). JSON.parse refuses raw control characters, so only an escape
 * can have put U+0000 or a lone surrogate in the value: without one the value is answered as it is,
 * unwalked (most answers), and with one (or without the text) it is walked.
 */
export function storableParsedJson<T>(text: string | undefined, value: T): T {
  return text === undefined || UNSTORABLE_ESCAPE.test(text) ? storableJson(value) : value;
}

function walk(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = walk(value[i]);
      if (item !== value[i]) {
        copy ??= value.slice();
        copy[i] = item;
      }
    }
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const entries = Object.entries(value);
  let changed = false;
  const walked = entries.map(([key, item]): [string, unknown] => {
    const k = storableText(key);
    const v = walk(item);
    if (k !== key || v !== item) changed = true;
    return [k, v];
  });
  return changed ? Object.fromEntries(walked) : value;
}
