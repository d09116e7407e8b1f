/**
 * Messages exchanged over the IPC channel between the pool (parent) and a child entry.
 *
 * Kept in its own module so that the child entry can import the shapes without pulling in
 * the pool (and `node:child_process`) at runtime.
 */
import type { SerializedError } from '../errors.js';

/** Parent → child: start one kernel invocation. */
export interface RunMessage {
  type: 'run';
  id: number;
  /** A `file://` URL; the parent normalizes paths so the child does no guessing. */
  moduleUrl: string;
  exportName: string;
  input: unknown;
  /** Epoch milliseconds handed to the kernel as `ctx.deadline`. */
  deadline: number;
  maxOutputBytes: number;
}

/** Parent → child: abort `ctx.signal` of the running invocation (cooperative, not a kill). */
export interface SoftCancelMessage {
  type: 'soft-cancel';
  id: number;
}

/** Every message the parent may send. */
export type ParentMessage = RunMessage | SoftCancelMessage;

/** Child → parent: the entry finished booting and is listening. */
export interface ReadyMessage {
  type: 'ready';
}

/**
 * Child → parent: the kernel returned. The output travels as the JSON text it was measured
 * as, so the parent can re-measure exactly those bytes before parsing.
 */
export interface ResultMessage {
  type: 'result';
  id: number;
  outputJson: string;
  /** Resident set size of the child when the kernel returned, as seen by the child. */
  rssBytes: number;
}

/** Child → parent: the kernel threw, or its output was refused. */
export interface ErrorMessage {
  type: 'error';
  id: number;
  error: SerializedError;
}

/** Child → parent: the running kernel reported progress (validated by the parent). */
export interface ProgressMessage {
  type: 'progress';
  id: number;
  progress: unknown;
}

/** Every message the child may send. */
export type ChildMessage = ReadyMessage | ResultMessage | ErrorMessage | ProgressMessage;

/** Runtime check for messages arriving from a child, which is less trusted than our own code. */
export function isChildMessage(value: unknown): value is ChildMessage {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  switch (record['type']) {
    case 'ready':
      return true;
    case 'result':
      return typeof record['id'] === 'number' && typeof record['outputJson'] === 'string';
    case 'error':
      return typeof record['id'] === 'number' && typeof record['error'] === 'object' && record['error'] !== null;
    case 'progress':
      return typeof record['id'] === 'number';
    default:
      return false;
  }
}

/** Runtime check for messages arriving from the parent. */
export function isParentMessage(value: unknown): value is ParentMessage {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record['type'] === 'soft-cancel') return typeof record['id'] === 'number';
  return (
    record['type'] === 'run' &&
    typeof record['id'] === 'number' &&
    typeof record['moduleUrl'] === 'string' &&
    typeof record['exportName'] === 'string' &&
    typeof record['deadline'] === 'number' &&
    typeof record['maxOutputBytes'] === 'number'
  );
}
