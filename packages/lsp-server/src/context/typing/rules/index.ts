// The typing rule table of each language that has one, by family.
import type { Family } from "../../types.js";
import type { TypingRules } from "../rules.js";
import { CPP_RULES } from "./cpp.js";
import { CSHARP_RULES } from "./csharp.js";
import { GO_RULES } from "./go.js";
import { JAVA_RULES } from "./java.js";
import { KOTLIN_RULES } from "./kotlin.js";
import { PYTHON_RULES } from "./python.js";
import { RUST_RULES } from "./rust.js";
import { SWIFT_RULES } from "./swift.js";
import { TYPESCRIPT_RULES } from "./typescript.js";

const RULES: ReadonlyMap<Family, TypingRules> = new Map(
  [
    TYPESCRIPT_RULES,
    PYTHON_RULES,
    GO_RULES,
    RUST_RULES,
    JAVA_RULES,
    CSHARP_RULES,
    CPP_RULES,
    KOTLIN_RULES,
    SWIFT_RULES,
  ].map((rules) => [rules.family, rules]),
);

/** The typing rules of a language family, or undefined where it has none (its receivers get no outline). */
export function rulesFor(family: Family): TypingRules | undefined {
  return RULES.get(family);
}
