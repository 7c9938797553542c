/**
 * Types only: the TypeScript type of the values a JSON Schema literal accepts, so that a tool
 * whose `inputSchema` is written inline (or declared `as const`) gets typed handler arguments.
 * Nothing here exists at run time; the runtime still validates every argument against the schema.
 */

/** JSON Schema `type` names and the TypeScript type of a value of each. */
interface TypeNames {
  string: string;
  number: number;
  integer: number;
  boolean: boolean;
  null: null;
}

type RequiredNames<S> = S extends { readonly required: readonly (infer Name)[] } ? Name : never;

// JSON Schema allows properties besides those listed unless `additionalProperties` is false.
type Extra<S> = S extends { readonly additionalProperties: false } ? unknown : { [name: string]: unknown };

type Flatten<T> = T extends object ? { [K in keyof T]: T[K] } : T;

type ObjectOf<S> = S extends { readonly properties: infer P extends Readonly<Record<string, unknown>> }
  ? Flatten<
      { -readonly [K in keyof P as K extends RequiredNames<S> ? K : never]: FromJsonSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredNames<S> ? never : K]?: FromJsonSchema<P[K]>;
      } & Extra<S>
    >
  : { [name: string]: unknown };

type ArrayOf<S> = S extends { readonly items: infer Item } ? FromJsonSchema<Item>[] : unknown[];

type OfTypeName<Name, S> = Name extends keyof TypeNames ? TypeNames[Name] : Name extends "object" ? ObjectOf<S> : Name extends "array" ? ArrayOf<S> : unknown;

type OfType<S> = S extends { readonly type: infer Name }
  ? Name extends readonly (infer Each)[]
    ? OfTypeName<Each, S>
    : OfTypeName<Name, S>
  : S extends { readonly properties: object }
    ? ObjectOf<S>
    : unknown;

type AnyOf<Options> = Options extends readonly (infer Option)[] ? FromJsonSchema<Option> : unknown;

/**
 * The type of the values a JSON Schema literal accepts. Covers `type` (one name or a list),
 * `properties` with `required`, `additionalProperties: false`, `items`, `enum`, `const`, `anyOf`
 * and `oneOf` (narrowing what `type` says); any other schema gives `unknown`. The schema must keep
 * its literal types: write it inline in `defineTool`, or declare it `as const`.
 *
 * @example
 * const point = { type: "object", properties: { x: { type: "number" } }, required: ["x"] } as const;
 * type Point = FromJsonSchema<typeof point>; // { x: number; [name: string]: unknown }
 */
export type FromJsonSchema<S> = S extends { readonly const: infer Value }
  ? Value
  : S extends { readonly enum: readonly (infer Value)[] }
    ? Value
    : S extends { readonly anyOf: infer Options }
      ? OfType<S> & AnyOf<Options>
      : S extends { readonly oneOf: infer Options }
        ? OfType<S> & AnyOf<Options>
        : OfType<S>;
