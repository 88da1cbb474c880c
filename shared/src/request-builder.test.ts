import { describe, expect, it } from 'vitest';
import type { EditableField } from './editable-field.schema.ts';
import { parseObjectPath } from './json-path.ts';
import { buildRequest, defaultOverrides, type RequestTemplate, requestKey } from './request-builder.ts';

const field = (f: Partial<EditableField> & Pick<EditableField, 'target' | 'path'>): EditableField => ({
  label: f.path,
  fieldType: 'STRING',
  ...f,
});

const base: RequestTemplate = {
  targetUrl: 'https://upstream.example.com/api/rooms?site=web',
  method: 'POST',
  defaultHeaders: { Accept: 'application/json', 'X-Api-Key': 'template-key' },
  defaultQuery: { currency: 'USD', page: 1 },
  defaultBody: { resort: 'POLY', party: { adults: 2, children: 0, childAges: [] }, flags: { promo: false } },
};

describe('buildRequest: template defaults', () => {
  it('sends the defaults as they are, with the query merged into the URL', () => {
    const req = buildRequest(base);
    expect(req).toEqual({
      url: 'https://upstream.example.com/api/rooms?site=web&currency=USD&page=1',
      method: 'POST',
      headers: { Accept: 'application/json', 'X-Api-Key': 'template-key' },
      query: { currency: 'USD', page: 1 },
      body: { resort: 'POLY', party: { adults: 2, children: 0, childAges: [] }, flags: { promo: false } },
    });
  });

  it('sends no body with GET, and none when the template has none', () => {
    expect(buildRequest({ ...base, method: 'GET' }).body).toBeUndefined();
    expect(buildRequest({ ...base, defaultBody: null }).body).toBeUndefined();
    expect(buildRequest({ targetUrl: 'https://a.example.com/', method: 'DELETE' }).body).toBeUndefined();
  });

  it('never mutates the template', () => {
    const template = structuredClone(base);
    buildRequest(template, {
      customBody: { party: { adults: 4 } },
      customQuery: { page: 3 },
      customHeaders: { accept: 'text/plain' },
    });
    expect(template).toEqual(base);
  });
});

describe('buildRequest: custom values over defaults', () => {
  it('merges custom headers case-insensitively, custom winning with its own spelling', () => {
    const req = buildRequest(base, { customHeaders: { accept: 'text/csv', 'X-Trace': 'on' } });
    expect(req.headers).toEqual({ accept: 'text/csv', 'X-Api-Key': 'template-key', 'X-Trace': 'on' });
  });

  it('merges custom query values over the defaults', () => {
    const req = buildRequest(base, { customQuery: { page: 2, lang: 'en' } });
    expect(req.query).toEqual({ currency: 'USD', page: 2, lang: 'en' });
    expect(new URL(req.url).searchParams.get('page')).toBe('2');
    expect(new URL(req.url).searchParams.get('lang')).toBe('en');
  });

  it('merges a custom body deeply into the default body; arrays and scalars are replaced', () => {
    const req = buildRequest(base, { customBody: { party: { adults: 3, childAges: [4] }, note: 'hi' } });
    expect(req.body).toEqual({
      resort: 'POLY',
      party: { adults: 3, children: 0, childAges: [4] },
      flags: { promo: false },
      note: 'hi',
    });
  });

  it('replaces a non-object default body with the custom body', () => {
    expect(buildRequest({ ...base, defaultBody: 'raw' }, { customBody: { a: 1 } }).body).toEqual({ a: 1 });
  });
});

describe('buildRequest: overrides at each editable field', () => {
  const fields: EditableField[] = [
    field({ target: 'BODY', path: 'party.adults', fieldType: 'NUMBER' }),
    field({ target: 'BODY', path: 'stay.range[1]', fieldType: 'DATE' }),
    field({ target: 'BODY', path: 'meta["room.type"]' }),
    field({ target: 'QUERY', path: 'currency' }),
    field({ target: 'QUERY', path: 'page', fieldType: 'NUMBER' }),
    field({ target: 'HEADERS', path: 'x-api-key' }),
    field({ target: 'BODY', path: 'flags.promo', fieldType: 'BOOLEAN' }),
  ];
  const template: RequestTemplate = { ...base, editableFields: fields };

  it('writes BODY overrides at nested and bracket paths, creating what is missing', () => {
    const req = buildRequest(template, {
      overrides: { body: { 'party.adults': 4, 'stay.range[1]': '2027-01-05', 'meta["room.type"]': 'suite' } },
    });
    expect(req.body).toEqual({
      resort: 'POLY',
      party: { adults: 4, children: 0, childAges: [] },
      flags: { promo: false },
      stay: { range: [null, '2027-01-05'] },
      meta: { 'room.type': 'suite' },
    });
  });

  it('writes QUERY overrides into the query and the URL, and null removes a parameter', () => {
    const req = buildRequest(template, { overrides: { query: { currency: 'EUR', page: null } } });
    expect(req.query).toEqual({ currency: 'EUR' });
    expect(req.url).toBe('https://upstream.example.com/api/rooms?site=web&currency=EUR');
  });

  it('writes HEADERS overrides over a differently cased default header', () => {
    const req = buildRequest(template, { overrides: { headers: { 'x-api-key': 'alert-key' } } });
    expect(req.headers).toEqual({ Accept: 'application/json', 'x-api-key': 'alert-key' });
  });

  it('coerces text from forms into numbers and booleans for NUMBER and BOOLEAN fields', () => {
    const req = buildRequest(template, {
      overrides: { body: { 'party.adults': '3', 'flags.promo': 'true' } },
    });
    expect(req.body).toMatchObject({ party: { adults: 3 }, flags: { promo: true } });
  });

  it('applies overrides after custom values (precedence: defaults < custom < overrides)', () => {
    const req = buildRequest(template, {
      customBody: { party: { adults: 3 } },
      customQuery: { currency: 'GBP' },
      customHeaders: { 'X-API-KEY': 'custom-key' },
      overrides: {
        body: { 'party.adults': 5 },
        query: { currency: 'JPY' },
        headers: { 'x-api-key': 'over' },
      },
    });
    expect(req.body).toMatchObject({ party: { adults: 5 } });
    expect(req.query.currency).toBe('JPY');
    expect(req.headers['x-api-key']).toBe('over');
    expect(Object.keys(req.headers).filter((h) => h.toLowerCase() === 'x-api-key')).toHaveLength(1);
  });

  it('keeps custom values where no override is given', () => {
    const req = buildRequest(template, { customBody: { party: { adults: 3 } }, overrides: { body: {} } });
    expect(req.body).toMatchObject({ party: { adults: 3 } });
  });

  it('ignores override keys that are not editable fields of the template', () => {
    const req = buildRequest(template, {
      overrides: { body: { resort: 'HACK' }, headers: { host: 'evil.example.com' }, query: { site: 'x' } },
    });
    expect(req.body).toMatchObject({ resort: 'POLY' });
    expect(req.headers).not.toHaveProperty('host');
    expect(req.url).toBe('https://upstream.example.com/api/rooms?site=web&currency=USD&page=1');
  });

  it('refuses paths that would reach the object prototype', () => {
    expect(parseObjectPath('__proto__.polluted')).toBeNull();
    const req = buildRequest(
      { ...template, editableFields: [field({ target: 'BODY', path: 'constructor.prototype.x' })] },
      { overrides: { body: { 'constructor.prototype.x': 'y' } } },
    );
    expect(req.body).toEqual(base.defaultBody);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('buildRequest: repeatable fields', () => {
  const children = field({ target: 'BODY', path: 'party.children', fieldType: 'NUMBER' });
  const ages = field({
    target: 'BODY',
    path: 'party.childAges',
    fieldType: 'NUMBER',
    defaultValue: 8,
    options: { repeatable: true, repeatCountField: { target: 'BODY', path: 'party.children' } },
  });
  // The repeatable field is listed first on purpose: the count is read after plain fields are written.
  const template: RequestTemplate = { ...base, editableFields: [ages, children] };

  it('writes a list sized by the count field: padded with the default, cut when too long', () => {
    const padded = buildRequest(template, {
      overrides: { body: { 'party.children': 3, 'party.childAges': [5] } },
    });
    expect(padded.body).toMatchObject({ party: { children: 3, childAges: [5, 8, 8] } });
    const cut = buildRequest(template, {
      overrides: { body: { 'party.children': 1, 'party.childAges': [5, 9, 12] } },
    });
    expect(cut.body).toMatchObject({ party: { children: 1, childAges: [5] } });
  });

  it('repeats a single value for each counted item and coerces each entry', () => {
    const req = buildRequest(template, {
      overrides: { body: { 'party.children': '2', 'party.childAges': '7' } },
    });
    expect(req.body).toMatchObject({ party: { children: 2, childAges: [7, 7] } });
  });

  it('reads the count from the request when the count field has no override', () => {
    const req = buildRequest(template, {
      customBody: { party: { children: 2 } },
      overrides: { body: { 'party.childAges': [3, 4, 5] } },
    });
    expect(req.body).toMatchObject({ party: { children: 2, childAges: [3, 4] } });
  });

  it('writes an empty list when the count is zero', () => {
    const req = buildRequest(template, {
      overrides: { body: { 'party.children': 0, 'party.childAges': [3] } },
    });
    expect(req.body).toMatchObject({ party: { children: 0, childAges: [] } });
  });

  it('caps the list size whatever the count says', () => {
    const req = buildRequest(template, {
      overrides: { body: { 'party.children': 1e9, 'party.childAges': 1 } },
    });
    expect((req.body as { party: { childAges: unknown[] } }).party.childAges).toHaveLength(100);
  });

  it('without a count field keeps the list as given and wraps a single value', () => {
    const free = field({ target: 'BODY', path: 'tags', options: { repeatable: true } });
    const one = buildRequest({ ...base, editableFields: [free] }, { overrides: { body: { tags: 'a' } } });
    expect(one.body).toMatchObject({ tags: ['a'] });
    const many = buildRequest(
      { ...base, editableFields: [free] },
      { overrides: { body: { tags: ['a', 'b'] } } },
    );
    expect(many.body).toMatchObject({ tags: ['a', 'b'] });
  });

  it('joins a repeatable QUERY value with commas, sized by a QUERY count', () => {
    const q = [
      field({ target: 'QUERY', path: 'children', fieldType: 'NUMBER' }),
      field({
        target: 'QUERY',
        path: 'ages',
        fieldType: 'NUMBER',
        options: { repeatable: true, repeatCountField: { target: 'QUERY', path: 'children' } },
      }),
    ];
    const req = buildRequest(
      { ...base, editableFields: q },
      { overrides: { query: { children: 2, ages: [4, 6, 9] } } },
    );
    expect(req.query).toMatchObject({ children: 2, ages: '4,6' });
    expect(new URL(req.url).searchParams.get('ages')).toBe('4,6');
  });
});

describe('defaultOverrides', () => {
  it('collects each field default value under its target', () => {
    expect(
      defaultOverrides([
        field({ target: 'BODY', path: 'party.adults', defaultValue: 2 }),
        field({ target: 'QUERY', path: 'currency', defaultValue: 'USD' }),
        field({ target: 'HEADERS', path: 'x-lang', defaultValue: 'en' }),
        field({ target: 'BODY', path: 'note' }),
      ]),
    ).toEqual({ body: { 'party.adults': 2 }, query: { currency: 'USD' }, headers: { 'x-lang': 'en' } });
  });
});

describe('requestKey', () => {
  it('is the same for requests that differ only in order and header case', () => {
    const a = buildRequest(base);
    const b = {
      ...a,
      url: 'https://upstream.example.com/api/rooms?page=1&currency=USD&site=web',
      headers: { 'x-api-key': 'template-key', accept: 'application/json' },
      body: { flags: { promo: false }, party: { childAges: [], children: 0, adults: 2 }, resort: 'POLY' },
    };
    expect(requestKey(b)).toBe(requestKey(a));
  });

  it('differs when the method, a value, a header or the body differs', () => {
    const a = buildRequest(base);
    const key = requestKey(a);
    expect(requestKey({ ...a, method: 'PUT' })).not.toBe(key);
    expect(requestKey({ ...a, url: a.url.replace('page=1', 'page=2') })).not.toBe(key);
    expect(requestKey({ ...a, headers: { ...a.headers, Accept: 'text/plain' } })).not.toBe(key);
    expect(requestKey({ ...a, body: { resort: 'POLY' } })).not.toBe(key);
  });
});
