import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'runtime:public-route';
export const ADMIN_ONLY_ROUTE = 'runtime:admin-only-route';

/** No token needed (health, callbacks). Everything else needs one: secure by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Only a `*` token may call it. */
export const AdminOnly = (): MethodDecorator & ClassDecorator => SetMetadata(ADMIN_ONLY_ROUTE, true);
