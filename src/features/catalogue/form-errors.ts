/** Form inputs are strings; empty means "not given". */
export const numberOrUndefined = (value: string) => (value.trim() === '' ? undefined : Number(value));
