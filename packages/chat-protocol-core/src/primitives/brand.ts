/**
 * Brand checks for classes the packages export (`TurnRecovery`,
 * `InteractionResolver`): `instanceof` answers for one copy of a class, and an
 * app that mixes `import` and `require` loads the ESM and the CommonJS build,
 * two copies (DESIGN §2.8). A brand is a registry symbol (`Symbol.for`) every
 * copy reads alike. This module owns the reading only, not the brands.
 */

/**
 * Whether `value` is an object whose property `brand` (own or inherited) is
 * `true`. Never throws: a value whose read throws (a Proxy trap) is `false`.
 */
export function hasBrand(value: unknown, brand: symbol): boolean {
  try {
    return typeof value === 'object' && value !== null && (value as Partial<Record<symbol, unknown>>)[brand] === true;
  } catch {
    return false;
  }
}
