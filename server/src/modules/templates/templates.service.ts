import {
  type BuiltRequest,
  buildRequest,
  defaultOverrides,
  type GeneratorSampleInput,
  generatorSourceMessages,
  type HttpMethod,
  type RequestTemplate,
  readEditableFields,
  readTemplateStay,
  type Template,
  type TemplateCreateInput,
  type TemplateGeneratorInfo,
  type TemplatePatch,
  type TemplateSample,
  type TemplateStay,
  type TemplateTestInput,
  type TemplateTestResult,
  type TemplateUpdateInput,
  templateMessages,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import type { TemplateRow } from '../../db/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import { OutboundError, type OutboundResponse } from '../../platform/outbound/outbound-client.ts';
import { GeneratorInputError, type TemplateGenerator } from './generators/index.ts';
import {
  deleteTemplate,
  findTemplate,
  insertTemplate,
  jsonb,
  listTemplates,
  loadTemplatesForPolling,
  type TemplateWrite,
  templateGroupExists,
  toTemplate,
  updateTemplate,
} from './templates.repo.ts';

/** The stored columns a template's request is built from. */
type StoredRequestTemplate = Pick<
  TemplateRow,
  'target_url' | 'method' | 'default_headers' | 'default_query' | 'default_body' | 'editable_fields'
>;

/**
 * The one conversion from a stored template to the shared builder's request template: the
 * template live test, the alert test and the engine's template cache all use it, so what a
 * test shows is what the poller sends. Editable fields are read by the shared validated reader
 * (valid ones only, in display order); no stored body is no body.
 */
export function toRequestTemplate(stored: StoredRequestTemplate): RequestTemplate {
  return {
    targetUrl: stored.target_url,
    method: stored.method as HttpMethod,
    defaultHeaders: stored.default_headers,
    defaultQuery: stored.default_query,
    defaultBody: stored.default_body ?? undefined,
    editableFields: readEditableFields(stored.editable_fields),
  };
}

/** A template as the poller uses it: its name for messages and its request, converted once. */
export interface PollingTemplate {
  id: string;
  name: string;
  updatedAt: Date;
  request: RequestTemplate;
  /** Which fields carry the stay, for alerts that watch a window of stays; null: none declared. */
  stay: TemplateStay | null;
}

export interface Viewer {
  /** Admins see inactive templates and the default headers (which often carry upstream credentials). */
  isAdmin: boolean;
}

/** What an ordinary user may see of a template: the alert form needs no upstream headers. */
function forViewer(template: Template, viewer: Viewer): Template {
  return viewer.isAdmin ? template : { ...template, defaultHeaders: {} };
}

function toWrite(input: TemplatePatch): TemplateWrite {
  const write: TemplateWrite = {
    name: input.name,
    description: input.description === undefined ? undefined : input.description || null,
    resort_code: input.resortCode,
    template_group_id: input.templateGroupId,
    target_url: input.targetUrl,
    method: input.method,
    polling_interval_seconds: input.pollingIntervalSeconds,
    is_active: input.isActive,
  };
  if (input.defaultHeaders !== undefined) write.default_headers = JSON.stringify(input.defaultHeaders);
  if (input.defaultQuery !== undefined) write.default_query = JSON.stringify(input.defaultQuery);
  if (input.editableFields !== undefined) write.editable_fields = JSON.stringify(input.editableFields);
  if (input.defaultBody !== undefined) write.default_body = jsonb(input.defaultBody);
  if (input.responseWatchConfig !== undefined) write.response_watch_config = jsonb(input.responseWatchConfig);
  if (input.responseWatchPresets !== undefined)
    write.response_watch_presets = jsonb(input.responseWatchPresets);
  if (input.stay !== undefined) write.stay = jsonb(input.stay);
  return write;
}

const foreignKeyViolation = (error: unknown, constraint: string) => {
  const e = error as { code?: string; constraint?: string } | undefined;
  return e?.code === '23503' && e.constraint === constraint;
};

export function createTemplateService(deps: {
  db: Database;
  clock: Clock;
  generators: ReadonlyMap<string, TemplateGenerator>;
  /** Sends a built request upstream through the guarded outbound client. */
  send: (req: BuiltRequest) => Promise<OutboundResponse>;
  /** How many alerts are built on a template (the alerts service counts its rows). */
  countAlerts: (templateId: string) => Promise<number>;
}) {
  const { db } = deps;

  function notFound(): never {
    throw new AppError('NOT_FOUND', templateMessages.notFound);
  }

  async function requireTemplate(id: string, viewer: Viewer): Promise<Template> {
    const row = isUuid(id) ? await findTemplate(db, id) : undefined;
    // An inactive template is invisible to ordinary users, as if it did not exist.
    if (!row || (!row.is_active && !viewer.isAdmin)) notFound();
    return toTemplate(row);
  }

  async function checkGroup(groupId: string | null | undefined): Promise<void> {
    if (groupId && !(isUuid(groupId) && (await templateGroupExists(db, groupId)))) {
      throw new AppError('BAD_REQUEST', templateMessages.templateGroupNotFound);
    }
  }

  /** A group deleted between the check and the write still answers the same 400. */
  async function writing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (foreignKeyViolation(error, 'templates_template_group_id_fkey')) {
        throw new AppError('BAD_REQUEST', templateMessages.templateGroupNotFound);
      }
      throw error;
    }
  }

  return {
    async list(viewer: Viewer): Promise<Template[]> {
      const rows = await listTemplates(db, { activeOnly: !viewer.isAdmin });
      return rows.map((row) => forViewer(toTemplate(row), viewer));
    },

    async get(id: string, viewer: Viewer): Promise<Template> {
      return forViewer(await requireTemplate(id, viewer), viewer);
    },

    async create(input: TemplateCreateInput): Promise<Template> {
      await checkGroup(input.templateGroupId);
      const write = toWrite(input);
      const id = await writing(() =>
        insertTemplate(db, {
          ...write,
          name: input.name,
          resort_code: input.resortCode,
          target_url: input.targetUrl,
          method: input.method,
          default_headers: JSON.stringify(input.defaultHeaders),
          default_query: JSON.stringify(input.defaultQuery),
          editable_fields: JSON.stringify(input.editableFields),
        }),
      );
      return requireTemplate(id, { isAdmin: true });
    },

    async update(input: TemplateUpdateInput): Promise<Template> {
      const { id, ...patch } = input;
      if (!isUuid(id)) notFound();
      await checkGroup(patch.templateGroupId);
      const write = toWrite(patch);
      const changes = Object.values(write).some((v) => v !== undefined);
      if (changes && !(await writing(() => updateTemplate(db, id, write)))) notFound();
      return requireTemplate(id, { isAdmin: true });
    },

    /**
     * Refuses (409, naming the count) while alerts use the template: deleting it would silently
     * end those alerts. The foreign key (ON DELETE RESTRICT) closes the race with a concurrent create.
     */
    async remove(id: string): Promise<void> {
      if (!isUuid(id)) notFound();
      const inUse = await deps.countAlerts(id);
      if (inUse > 0) throw new AppError('CONFLICT', templateMessages.inUse(inUse), { alertCount: inUse });
      try {
        if (!(await deleteTemplate(db, id))) notFound();
      } catch (error) {
        if (!foreignKeyViolation(error, 'alerts_template_id_fkey')) throw error;
        const count = await deps.countAlerts(id);
        throw new AppError('CONFLICT', templateMessages.inUse(count), { alertCount: count });
      }
    },

    /**
     * The live test: the editor's current values over the saved template, built with the override
     * fields' default values, sent once. An upstream failure is reported in `error`, never thrown.
     */
    async test(input: TemplateTestInput): Promise<TemplateTestResult> {
      const saved = await requireTemplate(input.id, { isAdmin: true });
      const edited = Object.fromEntries(
        Object.entries(input.template ?? {}).filter(([, v]) => v !== undefined),
      ) as Partial<Template>;
      const current: Template = { ...saved, ...edited };
      const template = toRequestTemplate({
        target_url: current.targetUrl,
        method: current.method,
        default_headers: current.defaultHeaders,
        default_query: current.defaultQuery,
        default_body: current.defaultBody,
        editable_fields: current.editableFields,
      });
      const request = buildRequest(template, { overrides: defaultOverrides(template.editableFields ?? []) });
      const started = performance.now();
      try {
        const res = await deps.send(request);
        return {
          request,
          response: { status: res.status, data: res.json !== undefined ? res.json : res.text },
          durationMs: res.durationMs,
          error: res.status >= 400 ? templateMessages.upstreamStatus(res.status) : null,
        };
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        return {
          request,
          response: null,
          durationMs: Math.round(performance.now() - started),
          error: error.message,
        };
      }
    },

    /** The engine's templates by id, each converted to the builder's request template. */
    async forPolling(ids: string[]): Promise<PollingTemplate[]> {
      const rows = await loadTemplatesForPolling(db, ids);
      return rows.map((t) => ({
        id: t.id,
        name: t.name,
        updatedAt: t.updated_at,
        request: toRequestTemplate(t),
        stay: readTemplateStay(t.stay),
      }));
    },

    listGenerators(): TemplateGeneratorInfo[] {
      return [...deps.generators.values()].map(({ id, label, description }) => ({ id, label, description }));
    },

    generatorSample(input: GeneratorSampleInput): TemplateSample {
      const generator = deps.generators.get(input.id);
      if (!generator) throw new AppError('NOT_FOUND', generatorSourceMessages.notFound);
      try {
        return generator.generate({ sourceUrl: input.sourceUrl || undefined, now: deps.clock.now() });
      } catch (error) {
        if (error instanceof GeneratorInputError) throw new AppError('BAD_REQUEST', error.message);
        throw error;
      }
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
