import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ReadYourWritesModule } from '@app/application';
import { GrpcServerHost } from './grpc-server.host';

/**
 * Runs the gRPC server. Feature modules plug in by declaring a provider decorated with
 * @GrpcService({ service, proto }) whose methods carry @GrpcUnary('Method').
 * Needs REQUEST_AUTHORIZER (AuthModule) and the platform providers.
 */
@Module({ imports: [DiscoveryModule, ReadYourWritesModule], providers: [GrpcServerHost], exports: [GrpcServerHost] })
export class GrpcModule {}
