/**
 * A worker thread that parks 2026-07-28 calls of the `greet` tool on a server, for tests that
 * count what the server's heap keeps: the client's own objects (fetch's connections, timing
 * entries, finalizers) live in the worker's heap, not in the one counted. Each message
 * `{ url, from, count }` parks `count` calls with the ids from `from`, one at a time, and is
 * answered with their `requestState`s, or with `{ error }` (a text) when one was not parked.
 */
import { parentPort } from 'node:worker_threads';
import { envelope, modernPost, resultOf } from './modern-http.js';

const ELICIT_CAPS = { elicitation: { form: {} } };

parentPort?.on('message', (job: { url: string; from: number; count: number }) => {
  void (async () => {
    const states: unknown[] = [];
    for (let i = 0; i < job.count; i++) {
      const id = job.from + i;
      const first = resultOf(
        await modernPost(
          job.url,
          { id, method: 'tools/call', params: { name: 'greet', arguments: {} } },
          envelope(ELICIT_CAPS),
        ),
      );
      if (first.resultType !== 'input_required') throw new Error(`call ${id} was not parked: ${JSON.stringify(first)}`);
      states.push(first.requestState);
    }
    return states;
  })().then(
    (states) => parentPort?.postMessage({ states }),
    (error: unknown) => parentPort?.postMessage({ error: String(error) }),
  );
});
