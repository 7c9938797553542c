/** The parts of the Standard Schema and Standard JSON Schema interfaces (standardschema.dev) we use. */

export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

/** Any validator that implements Standard Schema v1 (zod, valibot, arktype…). */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: converts the schema to JSON Schema (zod ≥ 4.2, valibot, arktype). */
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

export type InferOutput<S> = S extends StandardSchema<unknown, infer O> ? O : never;

export function isStandardSchema(value: unknown): value is StandardSchema {
  return typeof value === "object" && value !== null && "~standard" in value;
}
