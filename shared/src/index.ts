export * from './auth.schema.ts';
export * from './editable-field.schema.ts';
export * from './messages.ts';
export * from './notification-service.schema.ts';
export * from './notification-template.ts';
export * from './roles.ts';
export * from './watch.schema.ts';
