/**
 * Plain field setters for a store slice: fieldSetters(set, ['area', 'appInfo']) gives
 * { setArea: (area) => set({ area }), setAppInfo: (appInfo) => set({ appInfo }) }. A setter that
 * does more than replace its one field (clears an error, merges into a record) stays written out.
 */

/** `setX(value)` for each field `x` in K. */
export type FieldSetters<S, K extends keyof S & string> = { [P in K as `set${Capitalize<P>}`]: (value: S[P]) => void };

export function fieldSetters<S, K extends keyof S & string>(set: (partial: Partial<S>) => void, fields: readonly K[]): FieldSetters<S, K> {
  const setters: Record<string, (value: unknown) => void> = {};
  for (const field of fields) setters[`set${field.charAt(0).toUpperCase()}${field.slice(1)}`] = (value) => set({ [field]: value } as Partial<S>);
  return setters as FieldSetters<S, K>;
}
