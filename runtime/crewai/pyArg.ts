/** A keyword argument as the importer read it: a Python literal, or the source text of anything else. */
export type PyArg = string | number | boolean | null | PyArg[] | { [key: string]: PyArg } | { $python: string };
