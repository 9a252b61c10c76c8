import { resultOf, textOf, type ProgressUpdate, type ToolOutput } from '../../contract/index.js';
import type { HandlerExtra } from './extra.js';

/** Sends a call's progress: `progress` for `ctx.progress`, `update` for `ctx.update`. */
export interface ProgressSender {
  progress(update: ProgressUpdate | string): void;
  update(output: ToolOutput): void;
}

/**
 * Makes the progress sender of one call, or `undefined` when the request carries no
 * `_meta.progressToken` (the caller asked for no progress, so updates are dropped). Every update
 * counts `n += 1` and is sent as `notifications/progress {progressToken, progress, total?,
 * message?}` on the request's own stream: `progress` is the update's own number when it gives
 * one, else `n`; `total` is sent only when positive; `message` only when non-empty. A string is
 * a message; `update(output)` sends `textOf(output)` as the message, or, when the output's
 * `details` are a progress record (`{progress, total, message}`), those. Nothing is sent once
 * `isOpen()` turns false (after the call's result); sending is best effort and never throws.
 */
export function progressSenderOf(extra: HandlerExtra, isOpen: () => boolean): ProgressSender | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let count = 0;
  const send = (progress: number, total: number | undefined, message: string | undefined): void => {
    if (!isOpen()) return;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined && total > 0) params.total = total;
    if (message !== undefined && message !== '') params.message = message;
    void extra.sendNotification({ method: 'notifications/progress', params });
  };
  return {
    progress(update) {
      count += 1;
      if (typeof update === 'string') return send(count, undefined, update);
      const given = typeof update === 'object' && update !== null ? update : {};
      send(
        finite(given.progress) ?? count,
        finite(given.total),
        typeof given.message === 'string' ? given.message : undefined,
      );
    },
    update(output) {
      count += 1;
      let message = '';
      let details: unknown;
      try {
        details = resultOf(output).details;
        message = textOf(output);
      } catch {
        // An output that is not a ToolOutput still counts as an update, with no message.
      }
      const info = details as { progress?: unknown; total?: unknown; message?: unknown } | undefined;
      if (typeof info === 'object' && info !== null && finite(info.progress) !== undefined) {
        return send(
          finite(info.progress)!,
          finite(info.total),
          typeof info.message === 'string' && info.message !== '' ? info.message : message,
        );
      }
      send(count, undefined, message);
    },
  };
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
