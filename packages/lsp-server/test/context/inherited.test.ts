// Java and C#: a class's bases outlined and read from its line above the cursor, and a bare call found as a method
// the class inherits (issue 17). Real-looking code.
import { beforeAll, describe, expect, it } from "vitest";
import { SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { jvmTypeLine } from "../../src/context/scan/nesting.js";
import type { LanguageSupport } from "../../src/context/types.js";
import { code, resolvedAt, VirtualHost } from "./helpers.js";

const { java, csharp } = SYNTAX_SUPPORTS;

beforeAll(async () => {
  await Promise.all([java.ready?.(), csharp.ready?.()]);
});

describe("bases in the outline", () => {
  it.each([
    {
      support: java,
      text: "class Reader extends Base<T> implements Closeable, io.Flushable {}\ninterface I extends J, K {}",
      want: [
        ["Base", "Closeable", "io.Flushable"],
        ["J", "K"],
      ],
    },
    {
      support: csharp,
      text: "namespace N {\n  class Stream : DotNetStream, IDisposable, IList<int> {}\n  class Plain {}\n}",
      want: [["DotNetStream", "IDisposable", "IList"], []],
    },
  ])("$support.family", ({ support, text, want }) => {
    expect(support.parse(text).outline.declarations.map((d) => d.bases ?? [])).toEqual(want);
  });
});

describe("the class line above the cursor", () => {
  it.each([
    {
      line: "public final class StringUtils<T extends Comparable<T>> extends Base implements A, B<C> {",
      want: { name: "StringUtils", bases: ["Base", "A", "B"] },
    },
    {
      line: "    private static class Inner implements Runnable {",
      want: { name: "Inner", bases: ["Runnable"] },
    },
    {
      line: "public record Point(int x, int y) implements Shape {",
      want: { name: "Point", bases: ["Shape"] },
    },
    {
      line: "\tsealed class GuidStream : HeapStream, IGuidStream where T : class {",
      want: { name: "GuidStream", bases: ["HeapStream", "IGuidStream"] },
    },
    { line: "    public void run() {", want: undefined },
  ])("$line", ({ line, want }) => {
    const read = jvmTypeLine(line);
    expect(read && { name: read.name, bases: read.bases }).toEqual(want);
  });
});

describe("a bare call of an inherited method", () => {
  const cases: Array<{
    support: LanguageSupport;
    files: Record<string, string>;
    from: string;
    line: number;
    name: string;
    want: string[];
  }> = [
    {
      support: java,
      files: {
        "/w/src/app/Base.java": code`
          package app;
          abstract class Base {
              protected int helper(int x) { return x; }
          }`,
        "/w/src/app/Child.java": code`
          package app;
          class Child extends Base {
              int run() {
                  return helper(`,
      },
      from: "/w/src/app/Child.java",
      line: 3,
      name: "helper",
      want: ["/w/src/app/Base.java:helper"],
    },
    {
      support: csharp,
      files: {
        "/w/src/MD/DotNetStream.cs": code`
          namespace dnlib.DotNet.MD {
            public abstract class DotNetStream {
              public bool IsValidOffset(uint offset) { return true; }
            }
          }`,
        "/w/src/MD/GuidStream.cs": code`
          namespace dnlib.DotNet.MD {
            public sealed class GuidStream : DotNetStream {
              public bool IsValidIndex(uint index) {
                return IsValidOffset(`,
      },
      from: "/w/src/MD/GuidStream.cs",
      line: 3,
      name: "IsValidOffset",
      want: ["/w/src/MD/DotNetStream.cs:IsValidOffset"],
    },
  ];
  it.each(cases)("$support.family", async ({ support, files, from, line, name, want }) => {
    const found = await resolvedAt(support, new VirtualHost(files), from, files[from]!, line, {
      name,
      distance: 0,
    });
    expect(found).toEqual(want);
  });
});
