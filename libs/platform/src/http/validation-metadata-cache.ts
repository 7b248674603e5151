import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Lookup = MetadataStorage['getTargetValidationMetadatas'];

const installed = new WeakSet<MetadataStorage>();

/**
 * class-validator answers "the rules of this class" (`getTargetValidationMetadatas`) by filtering
 * every rule it holds, including a walk over every registered class for inherited ones, on every
 * validated object (and the ValidationPipe asks once more for nested binary values), then groups
 * them by property again: about 5% of an HTTP command's CPU. Both answers depend only on the
 * registered rules and the arguments, so they are kept per class and arguments, and forgotten
 * whenever a rule is registered (a class defined later, a schema). Callers only read the arrays.
 * Idempotent; returns the storage.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): MetadataStorage {
  if (installed.has(storage)) return storage;
  installed.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let byTarget = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata: ValidationMetadata): void => {
    byTarget = new Map();
    grouped = new WeakMap();
    register(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema ?? ''}\u0000${always}\u0000${strictGroups}\u0000${groups === undefined ? '-' : JSON.stringify(groups)}`;
    let forTarget = byTarget.get(target);
    if (forTarget === undefined) byTarget.set(target, (forTarget = new Map()));
    let found = forTarget.get(key);
    if (found === undefined) forTarget.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata: ValidationMetadata[]) => {
    let found = grouped.get(metadata);
    if (found === undefined) grouped.set(metadata, (found = group(metadata)));
    return found;
  };
  return storage;
}
