export * from './auth.schema.ts';
export * from './messages.ts';
export * from './roles.ts';
