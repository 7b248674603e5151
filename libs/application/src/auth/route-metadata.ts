import { SetMetadata } from '@nestjs/common';
import { READ_ROLES, type TokenRole } from './roles';
import { OPERATION_ROLES, type WriteOperation } from './operation-roles';

export const PUBLIC_ROUTE = 'runtime:public-route';
export const ADMIN_ONLY_ROUTE = 'runtime:admin-only-route';
export const ROUTE_ROLES = 'runtime:route-roles';

/** No token needed (health, callbacks). Everything else needs one: secure by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Only a `*` token may call it. */
export const AdminOnly = (): MethodDecorator & ClassDecorator => SetMetadata(ADMIN_ONLY_ROUTE, true);

/**
 * The roles an agent route accepts (an admin token always passes): a token of another role gets
 * 403 `forbidden` before the handler runs. Every protected route that is not @AdminOnly() declares it.
 */
export const Roles = (...roles: readonly Exclude<TokenRole, 'admin'>[]): MethodDecorator & ClassDecorator =>
  SetMetadata(ROUTE_ROLES, Object.freeze([...roles]));

/** A read: every role of the agent may read. */
export const ReadRoles = (): MethodDecorator & ClassDecorator => Roles(...READ_ROLES);

/** The roles of a write, from OPERATION_ROLES (the same as its gRPC call's). */
export const OperationRoles = (operation: WriteOperation): MethodDecorator & ClassDecorator =>
  Roles(...OPERATION_ROLES[operation]);
