// The draft's autosave queue, without React or fetch so it can be tested on its own (useDraft
// drives it and mirrors its state into the screen). Every edit is counted; a save sends the latest
// body and remembers which edit it covered, so edits made while it is in flight are not lost and
// the state says "pending" instead of "saved". One save at a time: a save asked for meanwhile waits
// for it and then sends the state of then (or nothing, when that save already covered it). A timer
// sends the draft once the editing pauses; a failed save stays failed until the next edit or a retry.

export type SaveState = { kind: 'saved'; at: Date | null } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'error'; error: unknown };

export interface SaveQueueOptions<B, A> {
  /** The body as it stands when the queue starts (already saved). */
  initial: B;
  /** Sends one body; its rejection is a failed save. */
  save: (body: B) => Promise<A>;
  /** Called with the server's answer, before the state says saved. */
  onSaved?: (answer: A, body: B) => void;
  /** Called with the refusal and the body it refused, before the state says error. */
  onFailed?: (error: unknown, body: B) => void;
  /** Every state change, in order. */
  onState?: (state: SaveState) => void;
  /** How long the editing must pause before the draft is sent. */
  pauseMs: number;
}

export class SaveQueue<B, A> {
  private body: B;
  private current: SaveState = { kind: 'saved', at: null };
  private edits = 0;
  private savedEdits = 0;
  private running: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: SaveQueueOptions<B, A>) {
    this.body = opts.initial;
  }

  get state(): SaveState {
    return this.current;
  }

  get latest(): B {
    return this.body;
  }

  /** True while some edit has not been saved by the server. */
  get unsaved(): boolean {
    return this.savedEdits !== this.edits;
  }

  /** Applies an edit to the latest body; it is sent once the editing pauses (or by a save in flight's successor). */
  edit(fn: (body: B) => B): B {
    this.body = fn(this.body);
    this.edits += 1;
    // A save in flight stays "saving": when it answers, it sees this edit and turns "pending".
    this.setState(this.current.kind === 'saving' ? this.current : { kind: 'pending' });
    return this.body;
  }

  /** Sends what is not saved yet, after any save in flight; false when the server refused it. */
  async send(): Promise<boolean> {
    // One save at a time: a save asked for meanwhile runs after it, with the state of then.
    while (this.running) await this.running;
    if (this.savedEdits === this.edits) return true;
    const body = this.body;
    const at = this.edits;
    this.setState({ kind: 'saving' });
    const p = (async () => {
      try {
        const answer = await this.opts.save(body);
        this.savedEdits = at;
        this.opts.onSaved?.(answer, body);
        this.setState(at === this.edits ? { kind: 'saved', at: new Date() } : { kind: 'pending' });
        return true;
      } catch (err) {
        this.opts.onFailed?.(err, body);
        this.setState({ kind: 'error', error: err });
        return false;
      }
    })();
    this.running = p;
    try {
      return await p;
    } finally {
      this.running = null;
    }
  }

  /** Saves now everything not saved yet, edits made during the save included (before publishing or testing). */
  async flush(): Promise<boolean> {
    const ok = await this.send();
    if (ok && this.unsaved) return this.send();
    return ok;
  }

  /** The screen goes away: the pause timer is dropped and a change not yet saved is sent now. */
  leave(): void {
    this.stopTimer();
    if (this.unsaved) void this.send();
  }

  private setState(next: SaveState): void {
    this.current = next;
    // The pause restarts with every edit while pending, and stops once a save starts or settles.
    this.stopTimer();
    if (next.kind === 'pending') this.timer = setTimeout(() => void this.send(), this.opts.pauseMs);
    this.opts.onState?.(next);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
