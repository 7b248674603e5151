export * from './error-codes';
export * from './classify-error';
export * from './json-safe';
