import {
  type TemplateGroup,
  type TemplateGroupCreateInput,
  type TemplateGroupUpdateInput,
  templateGroupMessages,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import { AppError, isUniqueViolation } from '../../platform/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import {
  deleteTemplateGroup,
  findTemplateGroup,
  insertTemplateGroup,
  listTemplateGroups,
  type TemplateGroupRecord,
  updateTemplateGroup,
} from './template-groups.repo.ts';

function toTemplateGroup(row: TemplateGroupRecord): TemplateGroup {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    displayOrder: row.display_order,
    createdAt: row.created_at.toISOString(),
  };
}

const nameIndex = 'template_groups_name_lower_key';

/**
 * Template groups. Deleting a group leaves its templates ungrouped (the foreign key is
 * ON DELETE SET NULL): a group is only a label in the editor's picker.
 */
export function createTemplateGroupService(deps: { db: Database }) {
  const { db } = deps;

  function notFound(): never {
    throw new AppError('NOT_FOUND', templateGroupMessages.notFound);
  }

  async function guardName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (name !== undefined && isUniqueViolation(error, nameIndex)) {
        throw new AppError('CONFLICT', templateGroupMessages.nameTaken(name));
      }
      throw error;
    }
  }

  return {
    async list(): Promise<TemplateGroup[]> {
      return (await listTemplateGroups(db)).map(toTemplateGroup);
    },

    async get(id: string): Promise<TemplateGroup> {
      const row = isUuid(id) ? await findTemplateGroup(db, id) : undefined;
      return row ? toTemplateGroup(row) : notFound();
    },

    async create(input: TemplateGroupCreateInput): Promise<TemplateGroup> {
      const row = await guardName(input.name, () =>
        insertTemplateGroup(db, {
          name: input.name,
          description: input.description || null,
          display_order: input.displayOrder ?? 0,
        }),
      );
      return toTemplateGroup(row);
    },

    async update(input: TemplateGroupUpdateInput): Promise<TemplateGroup> {
      if (!isUuid(input.id)) notFound();
      const row = await guardName(input.name, () =>
        updateTemplateGroup(db, input.id, {
          name: input.name,
          description: input.description === undefined ? undefined : input.description || null,
          display_order: input.displayOrder,
        }),
      );
      return row ? toTemplateGroup(row) : notFound();
    },

    async remove(id: string): Promise<void> {
      if (!isUuid(id) || !(await deleteTemplateGroup(db, id))) notFound();
    },
  };
}
