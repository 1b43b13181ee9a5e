/**
 * Agent memory: the messages the model sees, with a sliding window of `maxMessages`.
 *
 * Fixes openmanus.md 7.1 (c): the original's tail slice could separate an assistant
 * message carrying `tool_calls` from its tool results (OpenAI then answers 400) and
 * dropped the task. Here the window drops whole turns from the front (an assistant
 * message with its tool results is one unit), the task message is pinned, and every
 * message keeps the index it was given when appended, so events can point at it.
 */
import type { Message } from '@shared/domain/message';

export interface MemoryEntry {
  readonly index: number;
  readonly message: Message;
  /** belongs to the turn before it (a tool result, or the user message carrying a tool's image) */
  readonly followsTurn: boolean;
}

export interface MemoryObserver {
  appended?(index: number, message: Message): void;
  truncated?(dropped: number[], window: number): void;
}

export const DEFAULT_MAX_MESSAGES = 100;

export class Memory {
  private list: MemoryEntry[] = [];
  private pinnedIndex: number | null = null;
  private nextIndex = 0;

  constructor(
    readonly maxMessages: number = DEFAULT_MAX_MESSAGES,
    private readonly observer: MemoryObserver = {},
  ) {
    if (!Number.isInteger(maxMessages) || maxMessages < 1) {
      throw new RangeError(`max_messages must be a positive integer, got ${maxMessages}`);
    }
  }

  /**
   * Appends a message and returns its index. Tool messages always travel with the
   * assistant call before them; pass `followsTurn` for other attachments (a tool's image).
   */
  add(message: Message, options: { followsTurn?: boolean } = {}): number {
    const followsTurn = message.role === 'tool' || options.followsTurn === true;
    const entry: MemoryEntry = { index: this.nextIndex++, message, followsTurn };
    this.list.push(entry);
    this.observer.appended?.(entry.index, message);
    this.enforceWindow();
    return entry.index;
  }

  /** Adds a run's task; it is never dropped from the window while it is the current task. */
  pinTask(message: Message): number {
    const index = this.nextIndex;
    this.pinnedIndex = index;
    this.add(message);
    return index;
  }

  /**
   * Puts back a window rebuilt from a run's history (a fork or a resume): the entries keep
   * their indexes, each is announced again so the new run's own history holds its whole
   * context, and the next message continues after the highest index.
   */
  restore(entries: readonly MemoryEntry[], pinnedIndex: number | null, nextIndex: number): void {
    if (this.list.length > 0) throw new Error('restore needs an empty memory');
    this.pinnedIndex = pinnedIndex;
    for (const entry of entries) {
      this.list.push(entry);
      this.observer.appended?.(entry.index, entry.message);
    }
    this.nextIndex = Math.max(nextIndex, ...entries.map((e) => e.index + 1));
  }

  /** What the model receives, oldest first. */
  get messages(): Message[] {
    return this.list.map((e) => e.message);
  }

  get entries(): readonly MemoryEntry[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** The most recent entries, newest last (no copy of the whole window). */
  recent(count: number): MemoryEntry[] {
    return this.list.slice(Math.max(0, this.list.length - count));
  }

  /**
   * Replaces the content of the message with this index (a user's edit while the run is
   * paused); role, tool calls and pairing stay as they are. Returns the message as it
   * was, or undefined when the index is not in the window (any more).
   */
  replaceContent(index: number, content: string): Message | undefined {
    const position = this.list.findIndex((e) => e.index === index);
    const entry = this.list[position];
    if (!entry) return undefined;
    this.list[position] = { ...entry, message: { ...entry.message, content } };
    return entry.message;
  }

  /** Index the next appended message will get. */
  get nextMessageIndex(): number {
    return this.nextIndex;
  }

  private enforceWindow(): void {
    if (this.list.length <= this.maxMessages) return;
    const dropped: number[] = [];
    let cursor = 0;
    while (this.list.length > this.maxMessages && cursor < this.list.length) {
      if (this.list[cursor]!.index === this.pinnedIndex) {
        cursor++;
        continue;
      }
      const end = this.turnEnd(cursor);
      // Never drop the newest turn: a single turn larger than the window stays whole.
      if (end >= this.list.length) break;
      for (const entry of this.list.splice(cursor, end - cursor)) dropped.push(entry.index);
    }
    if (dropped.length > 0) this.observer.truncated?.(dropped, this.maxMessages);
  }

  /** End (exclusive) of the turn starting at `start`: a message with its followers. */
  private turnEnd(start: number): number {
    let end = start + 1;
    // Followers of the head turn leave with it; a follower at the head (an orphan,
    // never produced here) leaves with its siblings so no tool result is left dangling.
    while (end < this.list.length && this.list[end]!.followsTurn) end++;
    return end;
  }
}
