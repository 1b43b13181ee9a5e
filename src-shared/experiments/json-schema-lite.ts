/**
 * The part of JSON Schema an answer scorer checks (no package: src-shared stays free of
 * dependencies): type, properties, required, additionalProperties = false, items, enum,
 * const, minimum, maximum, minLength, maxLength, pattern. Returns the first problem, or
 * undefined when the value fits.
 */
export function schemaProblem(
  value: unknown,
  schema: Record<string, unknown>,
  at = '$',
): string | undefined {
  const type = schema.type;
  if (typeof type === 'string' && !hasType(value, type)) return `${at} is not ${type}`;
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))
  )
    return `${at} is not one of ${JSON.stringify(schema.enum)}`;
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    return `${at} is not ${JSON.stringify(schema.const)}`;
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      return `${at} is below ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      return `${at} is above ${schema.maximum}`;
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength)
      return `${at} is shorter than ${schema.minLength}`;
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      return `${at} is longer than ${schema.maxLength}`;
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      return `${at} does not match /${schema.pattern}/`;
  }
  if (Array.isArray(value) && isSchema(schema.items)) {
    for (const [i, item] of value.entries()) {
      const problem = schemaProblem(item, schema.items, `${at}[${i}]`);
      if (problem) return problem;
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Array.isArray(schema.required))
      for (const key of schema.required)
        if (typeof key === 'string' && !(key in record)) return `${at}.${key} is missing`;
    const properties = isSchema(schema.properties) ? schema.properties : {};
    for (const [key, sub] of Object.entries(properties)) {
      if (!(key in record) || !isSchema(sub)) continue;
      const problem = schemaProblem(record[key], sub, `${at}.${key}`);
      if (problem) return problem;
    }
    if (schema.additionalProperties === false)
      for (const key of Object.keys(record))
        if (!(key in properties)) return `${at}.${key} is not allowed`;
  }
  return undefined;
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isSchema(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}
