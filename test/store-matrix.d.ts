/** Types of test/store-matrix.js (CommonJS: jest.esdb.config.js reads it too). */
interface MatrixEntry {
  path: string;
  why: string;
}
declare const matrix: { suites: string[]; postgresOnly: MatrixEntry[]; clusterOnly: MatrixEntry[] };
export = matrix;
