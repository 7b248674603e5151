import { join } from 'node:path';
import * as ts from 'typescript';
import { fromRepoRoot } from '@app/core';

/**
 * The type strings of the domain's `AgentEvent` union, read by the TypeScript checker from
 * the sources: however a slice declares its events, a new member shows up here.
 */
export function domainEventTypes(): string[] {
  const file = fromRepoRoot('libs', 'domain', 'src', 'agent', 'agent.events.ts');
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    noResolve: false,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  const alias = source.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'AgentEvent',
  );
  if (!alias)
    throw new Error(`AgentEvent is not declared in ${join('libs', 'domain', 'src', 'agent', 'agent.events.ts')}`);
  const union = checker.getTypeAtLocation(alias.name);
  const members = union.isUnion() ? union.types : [union];
  return [...new Set(members.flatMap((member) => literalsOf(checker, member)))].sort();
}

function literalsOf(checker: ts.TypeChecker, member: ts.Type): string[] {
  const property = member.getProperty('type');
  if (!property || !property.valueDeclaration)
    throw new Error(`an AgentEvent member without a type field: ${checker.typeToString(member)}`);
  const type = checker.getTypeOfSymbolAtLocation(property, property.valueDeclaration);
  const parts = type.isUnion() ? type.types : [type];
  return parts.map((part) => {
    if (!part.isStringLiteral())
      throw new Error(`AgentEvent type field is not a string literal: ${checker.typeToString(part)}`);
    return part.value;
  });
}
