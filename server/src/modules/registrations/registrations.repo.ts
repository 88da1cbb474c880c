import type { Database } from '../../db/database.ts';

/** The caller's alerts, newest first. */
export async function listRegistrationsForUser(db: Database, userId: string) {
  const rows = await db
    .selectFrom('registrations')
    .innerJoin('templates', 'templates.id', 'registrations.template_id')
    .select([
      'registrations.id',
      'registrations.status',
      'registrations.title',
      'registrations.template_id',
      'registrations.party_name',
      'templates.name as template_name',
    ])
    .where('registrations.user_id', '=', userId)
    .orderBy('registrations.created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    title: r.title,
    templateId: r.template_id,
    partyName: r.party_name,
    template: { name: r.template_name },
  }));
}
