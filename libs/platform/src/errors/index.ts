export * from './classify-error';
export * from './json-safe';
