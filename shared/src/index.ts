export * from './auth.schema.ts';
export * from './editable-field.schema.ts';
export * from './messages.ts';
export * from './proxy.schema.ts';
export * from './proxy-import.ts';
export * from './roles.ts';
export * from './watch.schema.ts';
