/** An envelope whose verdict is kept: a detached JSON copy of it, and the verdict. */
interface KeptVerdict {
  readonly envelope: unknown;
  readonly verdict: string | undefined;
}

/** The most verdicts kept, and the longest envelope JSON whose verdict is kept. */
const MAX_VERDICTS = 16;
const MAX_ENVELOPE_TEXT = 4096;

/**
 * Whether `given` is the JSON value `kept` (a value `JSON.parse` made): the same primitives, and
 * objects and arrays with the same members in the same order. Anything that is not a JSON value
 * (`undefined`, a function, a class instance, a sparse hole) makes it `false`.
 */
function sameJson(kept: unknown, given: unknown): boolean {
  if (kept === given) return true;
  if (typeof kept !== 'object' || kept === null || typeof given !== 'object' || given === null) return false;
  if (Array.isArray(kept)) {
    if (!Array.isArray(given) || given.length !== kept.length) return false;
    for (let i = 0; i < kept.length; i++) if (!(i in given) || !sameJson(kept[i], given[i])) return false;
    return true;
  }
  if (Array.isArray(given) || Object.getPrototypeOf(given) !== Object.prototype) return false;
  const keptKeys = Object.keys(kept);
  const givenKeys = Object.keys(given);
  if (keptKeys.length !== givenKeys.length) return false;
  for (let i = 0; i < keptKeys.length; i++) {
    const key = keptKeys[i]!;
    if (givenKeys[i] !== key) return false;
    if (!sameJson((kept as Record<string, unknown>)[key], (given as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Verdicts of a pure check of 2026-07-28 `_meta` envelopes (the SDK's
 * `codec.checkInboundEnvelope`: a problem text, or `undefined` when it is valid), kept by the
 * envelope's JSON value: a client sends the same envelope with every request, so most requests
 * find theirs kept, by a comparison of values instead of the JSON text of each envelope. At most
 * `MAX_VERDICTS` are kept (the oldest goes first), each for an envelope whose JSON text has at
 * most `MAX_ENVELOPE_TEXT` characters and that is a JSON value itself (one `JSON.parse` could
 * make: what a body parsed elsewhere may not be). What is kept is a copy made with `JSON.parse`,
 * so nothing a handler does with its request's envelope changes it, and nothing of one request
 * reaches another's answer but the verdict.
 */
export class EnvelopeVerdicts {
  private readonly kept: KeptVerdict[] = [];

  constructor(private readonly check: (envelope: Record<string, unknown>) => string | undefined) {}

  /** The check's verdict on `envelope`: a kept one for the same JSON value, else the check's own. */
  verdictOf(envelope: Record<string, unknown>): string | undefined {
    for (const entry of this.kept) if (sameJson(entry.envelope, envelope)) return entry.verdict;
    const text = JSON.stringify(envelope);
    const verdict = this.check(envelope);
    if (text.length > MAX_ENVELOPE_TEXT) return verdict;
    const copy: unknown = JSON.parse(text);
    if (!sameJson(copy, envelope)) return verdict;
    if (this.kept.length >= MAX_VERDICTS) this.kept.shift();
    this.kept.push({ envelope: copy, verdict });
    return verdict;
  }
}
