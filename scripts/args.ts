/**
 * The option reader of the developer scripts (scripts/*.ts). A script declares its options (name, whether
 * it takes a value and of which kind, default, one-line description) and its positional arguments once;
 * `parseArgs` then, before the script does any work:
 *  - prints the usage with every option to stdout and exits 0 on -h or --help;
 *  - on an unknown option, a missing value, a value of the wrong kind for a numeric option, an option given
 *    twice, a missing or surplus positional argument: prints `NAME: what is wrong` and the usage line to
 *    stderr and exits 2;
 *  - else returns the values, typed by the declaration.
 * An option's key is its long name in camelCase: `maxSegments` is `--max-segments`. A value follows its
 * option (`--steps 8`) or is joined to it (`--steps=8`); `--` ends the options.
 *
 * `strictCommand` and `parseStrict` give the scripts built on commander the same behaviour (0 for --help, 2 for bad
 * input, an unknown option named before a missing required one).
 */
import { Command } from "commander";

type Kind = "string" | "number" | "int" | "numbers" | "flag" | "variadic";

export interface OptionExtra {
  /** One letter: "o" also accepts -o. */
  short?: string;
  /** What the value is, in the usage: "N", "DIR", "FILE", "a|b". */
  value?: string;
  /** The script cannot run without it. */
  required?: boolean;
  /** The default as the usage shows it, where the script works it out (it then gets undefined when the option is absent). */
  defaultText?: string;
}

export interface OptionDef<T> extends OptionExtra {
  readonly kind: Kind;
  readonly description: string;
  readonly default?: string | number | boolean;
  /** The only values a text option takes (see `oneOf`). */
  readonly choices?: readonly string[];
  /** Carries the value's type only; never set. */
  readonly __type?: T;
}

type Required = OptionExtra & { required: true };

/** An option with a text value. */
export function str(description: string, def: string, extra?: OptionExtra): OptionDef<string>;
export function str(description: string, def: undefined, extra: Required): OptionDef<string>;
export function str(description: string, def?: undefined, extra?: OptionExtra): OptionDef<string | undefined>;
export function str(description: string, def?: string, extra: OptionExtra = {}): OptionDef<string | undefined> {
  return { kind: "string", description, default: def, ...extra };
}

/** An option with a numeric value (any finite number). */
export function num(description: string, def: number, extra?: OptionExtra): OptionDef<number>;
export function num(description: string, def: undefined, extra: Required): OptionDef<number>;
export function num(description: string, def?: undefined, extra?: OptionExtra): OptionDef<number | undefined>;
export function num(description: string, def?: number, extra: OptionExtra = {}): OptionDef<number | undefined> {
  return { kind: "number", description, default: def, ...extra };
}

/** An option with an integer value. */
export function int(description: string, def: number, extra?: OptionExtra): OptionDef<number>;
export function int(description: string, def: undefined, extra: Required): OptionDef<number>;
export function int(description: string, def?: undefined, extra?: OptionExtra): OptionDef<number | undefined>;
export function int(description: string, def?: number, extra: OptionExtra = {}): OptionDef<number | undefined> {
  return { kind: "int", description, default: def, ...extra };
}

/** An option whose text value is one of `choices`; the usage shows them, anything else exits 2. */
export function oneOf<const C extends string>(description: string, choices: readonly C[], def: C, extra: Omit<OptionExtra, "value"> = {}): OptionDef<C> {
  return { kind: "string", description, default: def, choices, value: choices.join("|"), ...extra };
}

/** An option whose value is a comma-separated list of numbers ("1,2,3"); the default is given the same way. */
export function nums(description: string, def: string, extra?: OptionExtra): OptionDef<number[]>;
export function nums(description: string, def?: undefined, extra?: OptionExtra): OptionDef<number[] | undefined>;
export function nums(description: string, def?: string, extra: OptionExtra = {}): OptionDef<number[] | undefined> {
  return { kind: "numbers", description, default: def, ...extra };
}

/** An option without a value: true when given. */
export function flag(description: string, extra: Omit<OptionExtra, "value" | "required" | "defaultText"> = {}): OptionDef<boolean> {
  return { kind: "flag", description, ...extra };
}

/** An option followed by several values (up to the next option); [] when absent. */
export function many(description: string, extra: OptionExtra = {}): OptionDef<string[]> {
  return { kind: "variadic", description, ...extra };
}

export interface Positional {
  /** As the usage shows it: "FILE", "DIR". */
  name: string;
  description: string;
  optional?: boolean;
  /** Takes every remaining argument (the last positional only). */
  variadic?: boolean;
  /** Checked like the options of that kind. */
  kind?: "int" | "number";
  /** Shown in the usage; the script applies it. */
  defaultText?: string;
}

export interface ArgSpec<O extends Record<string, OptionDef<unknown>>> {
  /** The script's name, as its errors start: "bench-pretrain". */
  name: string;
  /** What the script does, in a line or two. */
  summary: string;
  options: O;
  positionals?: Positional[];
  /** Text after the option list: other forms of the command, remarks. */
  notes?: string;
  /** Default: process.argv.slice(2). */
  argv?: string[];
}

export type ArgValues<O> = { -readonly [K in keyof O]: O[K] extends OptionDef<infer T> ? T : never };

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function placeholder(o: OptionDef<unknown>): string {
  if (o.kind === "flag") return "";
  const v = o.value ?? (o.kind === "int" || o.kind === "number" ? "N" : o.kind === "numbers" ? "N,N,..." : o.kind === "variadic" ? "X..." : "X");
  return ` ${v}`;
}

function optionLabel(key: string, o: OptionDef<unknown>): string {
  return `${o.short ? `-${o.short}, ` : ""}--${kebab(key)}${placeholder(o)}`;
}

function positionalLabel(p: Positional): string {
  const base = p.variadic ? `${p.name} ...` : p.name;
  return p.optional ? `[${base}]` : base;
}

/** "usage: node dist/scripts/NAME.js REQUIRED-OPTIONS [options] POSITIONALS" */
export function usageLine<O extends Record<string, OptionDef<unknown>>>(spec: ArgSpec<O>): string {
  const req = Object.entries(spec.options)
    .filter(([, o]) => o.required)
    .map(([k, o]) => `${o.short ? `-${o.short}` : `--${kebab(k)}`}${placeholder(o)}`);
  const hasOptional = Object.values(spec.options).some((o) => !o.required);
  const parts = [`node dist/scripts/${spec.name}.js`, ...req, ...(hasOptional ? ["[options]"] : []), ...(spec.positionals ?? []).map(positionalLabel)];
  return `usage: ${parts.join(" ")}`;
}

/** The full usage: the line, the summary, the positionals and every option with its default. */
export function usageText<O extends Record<string, OptionDef<unknown>>>(spec: ArgSpec<O>): string {
  const rows: Array<[string, string]> = [];
  for (const p of spec.positionals ?? []) rows.push([positionalLabel(p), p.description + (p.defaultText !== undefined ? ` (default: ${p.defaultText})` : "")]);
  const posRows = rows.length;
  for (const [k, o] of Object.entries(spec.options)) {
    const def = o.defaultText ?? (o.default !== undefined && o.kind !== "flag" ? String(o.default) : undefined);
    rows.push([optionLabel(k, o), o.description + (o.required ? " (required)" : def !== undefined ? ` (default: ${def})` : "")]);
  }
  rows.push(["-h, --help", "print this usage and exit"]);
  const width = Math.min(32, Math.max(...rows.map(([l]) => l.length)));
  const fmt = ([l, d]: [string, string]): string => (l.length > width ? `  ${l}\n  ${" ".repeat(width)}  ${d}` : `  ${l.padEnd(width)}  ${d}`);
  const out = [usageLine(spec), "", spec.summary.trim()];
  if (posRows) out.push("", "arguments:", ...rows.slice(0, posRows).map(fmt));
  out.push("", "options:", ...rows.slice(posRows).map(fmt));
  if (spec.notes) out.push("", spec.notes.trim());
  return out.join("\n") + "\n";
}

/** Reads the command line as `spec` declares it; exits 0 after the usage on -h/--help, 2 on bad input. */
export function parseArgs<O extends Record<string, OptionDef<unknown>>>(spec: ArgSpec<O>): { opts: ArgValues<O>; args: string[] } {
  const argv = spec.argv ?? process.argv.slice(2);
  const end = argv.indexOf("--");
  const head = end >= 0 ? argv.slice(0, end) : argv;
  if (head.includes("-h") || head.includes("--help")) {
    process.stdout.write(usageText(spec));
    process.exit(0);
  }
  const fail = (message: string): never => {
    process.stderr.write(`${spec.name}: ${message}\n${usageLine(spec)}\n`);
    process.exit(2);
  };
  const byName = new Map<string, [string, OptionDef<unknown>]>();
  for (const [k, o] of Object.entries(spec.options)) {
    byName.set(`--${kebab(k)}`, [k, o]);
    if (o.short) byName.set(`-${o.short}`, [k, o]);
  }
  const isOption = (a: string): boolean => a.startsWith("--") || byName.has(a);
  const values: Record<string, unknown> = {};
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      args.push(a);
      continue;
    }
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    const hit = byName.get(name);
    if (!hit) return fail(`unknown option '${name}'`);
    const [key, o] = hit;
    if (o.kind === "flag") {
      if (inline !== undefined) fail(`${name} takes no value`);
      values[key] = true;
      continue;
    }
    if (o.kind === "variadic") {
      const list = (values[key] as string[] | undefined) ?? [];
      if (inline !== undefined) list.push(inline);
      while (i + 1 < argv.length && !isOption(argv[i + 1]!)) list.push(argv[++i]!);
      if (!list.length) fail(`${name} needs a value`);
      values[key] = list;
      continue;
    }
    if (key in values) fail(`${name} is given more than once`);
    let v = inline;
    if (v === undefined) {
      const next = argv[i + 1];
      if (next === undefined || isOption(next)) return fail(`${name} needs a value`);
      v = next;
      i++;
    }
    if (o.choices && !o.choices.includes(v)) fail(`${name} must be ${o.choices.join(" or ")}, got '${v}'`);
    values[key] = convert(name, o.kind, v, fail);
  }
  for (const [k, o] of Object.entries(spec.options)) {
    if (k in values) continue;
    if (o.required) fail(`--${kebab(k)} is required`);
    if (o.kind === "flag") values[k] = false;
    else if (o.kind === "variadic") values[k] = [];
    else if (o.kind === "numbers" && typeof o.default === "string") values[k] = convert(`--${kebab(k)}`, "numbers", o.default, fail);
    else values[k] = o.default;
  }
  const pos = spec.positionals ?? [];
  const variadic = pos.length > 0 && pos[pos.length - 1]!.variadic;
  const needed = pos.filter((p) => !p.optional).length;
  if (args.length < needed) fail(`missing ${pos[args.length]!.name}`);
  if (!variadic && args.length > pos.length) fail(`unexpected argument '${args[pos.length]}'`);
  args.forEach((a, i) => {
    const p = pos[Math.min(i, pos.length - 1)]!;
    if (p.kind) convert(p.name, p.kind, a, fail);
  });
  return { opts: values as ArgValues<O>, args };
}

function convert(name: string, kind: Kind, v: string, fail: (m: string) => never): unknown {
  const number = (x: string): number | undefined => {
    const n = Number(x);
    return x.trim() !== "" && Number.isFinite(n) ? n : undefined;
  };
  if (kind === "number" || kind === "int") {
    const n = number(v);
    if (n === undefined) return fail(`${name} must be a number, got '${v}'`);
    if (kind === "int" && !Number.isInteger(n)) return fail(`${name} must be an integer, got '${v}'`);
    return n;
  }
  if (kind === "numbers") {
    const ns = v.split(",").map(number);
    if (ns.some((n) => n === undefined)) return fail(`${name} must be a comma-separated list of numbers, got '${v}'`);
    return ns;
  }
  return v;
}

/**
 * A commander program for a script that exits as the others do: 0 after --help, 2 (not commander's 1) on an
 * unknown option, a missing value or a missing required option, with `NAME: what is wrong` and a usage line.
 * Parse it with `parseStrict`.
 */
export function strictCommand(name: string): Command {
  return new Command(name)
    .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
    .configureOutput({ outputError: (s, write) => write(`${name}: ${s.replace(/^error: /, "")}`) })
    .showHelpAfterError(`usage: node dist/scripts/${name}.js [options] (--help lists them)`);
}

/**
 * Parses the command line with a strictCommand program. Commander checks the required options before it looks
 * for unknown ones, so a misspelt required option would be reported as missing; here an unknown option is
 * reported first, then a missing required one.
 */
export function parseStrict(program: Command, argv?: string[]): Command {
  const required = program.options.filter((o) => o.mandatory);
  for (const o of required) o.mandatory = false;
  if (argv) program.parse(argv, { from: "user" });
  else program.parse();
  for (const o of required) if (program.getOptionValue(o.attributeName()) === undefined) program.error(`required option '${o.flags}' not specified`);
  return program;
}
