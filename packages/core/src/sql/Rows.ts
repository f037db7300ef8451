/**
 * Column conversions shared by every SQL repository: SQLite returns 0/1 for
 * booleans and numbers for integers; PostgreSQL returns booleans and strings
 * for BIGINT. Rows are always normalized through these.
 */
/** An integer column as a driver returns it: a number from SQLite, a string from pg for BIGINT. */
export type IntegerColumn = number | bigint | string

/** A 0/1 flag column (an INTEGER on both dialects). */
export type FlagColumn = number | boolean

/** A JSON column: TEXT on both dialects. */
export type JsonColumn = string

export const bool = (value: unknown): boolean => value === true || value === 1 || value === "1" || value === "t"

export const num = (value: unknown): number => typeof value === "number" ? value : Number(value)

export const numOrNull = (value: unknown): number | null => value === null || value === undefined ? null : num(value)

export const strOrNull = (value: unknown): string | null => value === null || value === undefined ? null : String(value)

/** JSON columns are TEXT in both dialects. */
export const fromJson = <A>(value: unknown, fallback: A): A =>
  typeof value === "string" ? JSON.parse(value) as A : value === null || value === undefined ? fallback : value as A

export const toJson = (value: unknown): string => JSON.stringify(value)

/** Booleans are stored as 0/1 integers, which both dialects compare the same way. */
export const flag = (value: boolean): number => value ? 1 : 0
