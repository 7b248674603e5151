/** A reply warning (docs/api.md): always an object with a kind and a message, plus extras. */
export type Warning = {
  kind: string;
  message: string;
  [extra: string]: unknown;
};
