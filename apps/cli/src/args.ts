import { CliError, EXIT } from './cli-io';

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Record<string, string | true>;
}

/** `--name value` for the options that take one, `--name` for the others; anything else is positional. */
export function parseArgs(argv: readonly string[], valued: readonly string[] = ['as']): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg === '--') {
      if (arg !== '--') positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!valued.includes(name)) {
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new CliError(EXIT.usage, `--${name} needs a value`);
    flags[name] = value;
  }
  return { command: positionals[0], positionals: positionals.slice(1), flags };
}

/** Refuses flags a command does not know and a wrong number of positionals. */
export function expectArgs(
  args: ParsedArgs,
  usage: string,
  count: { min: number; max: number },
  flags: readonly string[] = [],
): void {
  const unknown = Object.keys(args.flags).filter((flag) => !flags.includes(flag) && flag !== 'help');
  if (unknown.length > 0) throw new CliError(EXIT.usage, `unknown option --${unknown[0]}\nusage: ${usage}`);
  if (args.positionals.length < count.min || args.positionals.length > count.max)
    throw new CliError(EXIT.usage, `usage: ${usage}`);
}
