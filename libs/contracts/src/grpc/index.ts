export * from './proto-files';
export * from './service-names';
