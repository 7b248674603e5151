export * from './grpc-status';
export * from './grpc.decorators';
export * from './grpc-call';
export * from './grpc-server.host';
export * from './grpc.module';
export * from './grpc-validation';
export * from './grpc-reply';
export * from './grpc-services';
