/**
 * Record data written as raw JSON text (`ctx.writeRecord(ns, '{"n":12345678901234567890}')`):
 * it crosses the wire exactly as given, so numbers beyond a double's precision survive. The
 * text is checked only when the record is sent (see the MCP edge's `wireRecordOf`).
 */
export class RawJsonData {
  constructor(readonly text: string) {}
}
