/** A command line the CLI cannot turn into a call: an invalid_request, answered before any browser is touched. */
import { failure, type ErrorOutcome } from '../../runtime/outcome.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'invalid_request' as const;
  readonly hint: string;

  constructor(message: string, opts: { hint: string }) {
    super(message);
    this.hint = opts.hint;
  }

  /** The same `{ok:false, content, data}` shape every door answers with. */
  toOutcome(): ErrorOutcome {
    return failure(this.code, this.message, this.hint);
  }
}

/** node:util parseArgs, with its complaint turned into an invalid_request naming the command. */
export function own<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError(`brow ${command}: ${(e as Error).message}`, {
      hint: `See brow ${command} --help (configuration keys are flags too: brow config --help).`,
    });
  }
}
