export { REPLY_SCHEMAS, type ReplySchemaName } from './all.schemas';
export { POSITION_DESCRIPTION } from './commands.schemas';
export { DECIMAL_PATTERN, type SchemaObject } from './schema';
export * from './decorators';
