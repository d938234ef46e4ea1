import { deepseek } from "./deepseek.js";
import type { NextEditFormat, NextEditFormatName } from "./excerpt.js";
import { instinct } from "./instinct.js";
import { sweep } from "./sweep.js";
import { zeta } from "./zeta.js";

/** Every next-edit format, by the name `nextEdit.format` takes. */
export const NEXT_EDIT_FORMATS: Readonly<Record<NextEditFormatName, NextEditFormat>> = {
  zeta,
  sweep,
  instinct,
  deepseek,
};

/** The names `nextEdit.format` takes, in the order the README lists them. */
export const NEXT_EDIT_FORMAT_NAMES = Object.keys(NEXT_EDIT_FORMATS) as NextEditFormatName[];

/** Whether `name` names a format (for settings read from the editor). */
export function isNextEditFormatName(name: string): name is NextEditFormatName {
  return Object.hasOwn(NEXT_EDIT_FORMATS, name);
}
