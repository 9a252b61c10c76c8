import type { ToolRecord } from '../../contract/index.js';
import { RawJsonData } from '../../contract/internal.js';
import { errorText } from '../../util/describe.js';

export { RawJsonData };

/** A record as it crosses the wire: its namespace and its data as a JSON string (exact bytes). */
export interface WireRecord {
  ns: string;
  data: string;
}

/**
 * What a result's `_meta[RECORD_META_KEY]` holds for a tool's record: `{"ns": ns, "data":
 * JSON.stringify(data)}` (raw JSON text written with `ctx.writeRecord` as given), or, when the
 * record cannot be made, the error text in its place (a string): `record: the namespace is empty`,
 * `record: the data is not valid JSON: <reason>`, `record: a record must be an object with "ns" and
 * "data"`, `record: the data has no JSON form` (undefined, a function or a symbol) or `record: the
 * data cannot be serialised to JSON: <reason>`. It never throws: a record that cannot be made never
 * fails the call.
 */
export function wireRecordOf(record: ToolRecord): WireRecord | string {
  if (typeof record !== 'object' || record === null) return 'record: a record must be an object with "ns" and "data"';
  const ns = (record as { ns?: unknown }).ns;
  if (typeof ns !== 'string' || ns === '') return 'record: the namespace is empty';
  if (record.data instanceof RawJsonData) {
    try {
      JSON.parse(record.data.text);
    } catch (err) {
      return `record: the data is not valid JSON: ${errorText(err)}`;
    }
    return { ns, data: record.data.text };
  }
  let data: string | undefined;
  try {
    data = JSON.stringify(record.data);
  } catch (err) {
    return `record: the data cannot be serialised to JSON: ${errorText(err)}`;
  }
  if (data === undefined) return 'record: the data has no JSON form';
  return { ns, data };
}
