/** The median of `values` (the upper middle one for an even count); `values` is not changed. */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
