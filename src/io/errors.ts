/**
 * An error caused by the user's input or options. The CLI prints its message
 * (never a stack trace) and exits nonzero; library callers can catch it by type.
 */
export class InputError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(InputError.format(message, file, line));
    this.name = "InputError";
  }

  static format(message: string, file?: string, line?: number): string {
    if (!file) return message;
    if (file === "-") file = "<stdin>";
    return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
  }
}

/**
 * Standard output's reader went away (`proneval ... | head`): not a failure of the command, which
 * ends quietly, as `score` does on EPIPE.
 */
export class StdoutClosedError extends InputError {
  constructor() {
    super("cannot write: the reader went away (EPIPE)", "<stdout>");
    this.name = "StdoutClosedError";
  }
}
