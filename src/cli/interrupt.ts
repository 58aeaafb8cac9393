// SIGINT and SIGTERM during a command that writes (ods apply, ods destroy). The first asks
// the run to stop: nothing new starts, the calls in flight finish and go to the state,
// which is saved, and the command exits 130. A second one stops the process at once: the
// calls then in flight may be missing from the state, and the next apply finds them by
// natural key (as after a crash), never making a duplicate.

/** Exit code of a command stopped by a signal (128 + SIGINT's number, as shells report it). */
export const EXIT_INTERRUPTED = 130;

export interface Interrupt {
  /** Aborted on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Removes the handlers (the default behaviour of both signals comes back). */
  dispose(): void;
}

export interface InterruptOptions {
  /** Where the notices go (stderr). */
  say: (line: string) => void;
  /** Ends the process now (the second signal), giving up what it must (the state's lock). */
  force: (code: number) => void;
}

/** Catches SIGINT and SIGTERM until disposed: the first stops gently, a second forces. */
export function catchInterrupts(opts: InterruptOptions): Interrupt {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    if (!controller.signal.aborted) {
      opts.say(
        `\n${name} received: stopping. No new change starts; the calls already sent finish and the state is saved. ` +
          `Send it again to stop at once (the calls in flight may then be missing from the state until the next apply finds them).`,
      );
      controller.abort();
      return;
    }
    opts.say(`${name} received again: stopping now, without waiting for the calls in flight. Run the apply again to finish.`);
    opts.force(EXIT_INTERRUPTED);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
