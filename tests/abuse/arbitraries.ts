import fc from "fast-check";

/** A value of any JSON type, strings sometimes carrying NUL or control characters; a list holds `item`s. */
export function jsonish(item: fc.Arbitrary<unknown> = fc.string()) {
  return fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(item, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
  );
}

/** A request body of up to eight keys, each one of `fields` or any short name, each value `value`. */
export function bodyOf(fields: string[], value: fc.Arbitrary<unknown> = jsonish()) {
  return fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 12 })), value, { maxKeys: 8 });
}
