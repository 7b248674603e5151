// The suites' Postgres helpers live in the read models' testing face, where the libraries' own
// specs reach them too (a library never imports test/).
export * from '@app/read-models/testing';
