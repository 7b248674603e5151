import { Module } from '@nestjs/common';
import { DelegationModule } from '@app/application';
import { DelegationsController } from './delegations.controller';

@Module({ imports: [DelegationModule], controllers: [DelegationsController] })
export class DelegationHttpModule {}
