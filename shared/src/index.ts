export * from './auth.schema.ts';
export * from './editable-field.schema.ts';
export * from './messages.ts';
export * from './object-path.ts';
export * from './request-builder.ts';
export * from './roles.ts';
export * from './template.schema.ts';
export * from './watch.schema.ts';
