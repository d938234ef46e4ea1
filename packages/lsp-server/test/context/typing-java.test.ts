// Java's typing rule table, row by row, then the member outline of a receiver's type across files (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const java = rules("java");

describe("Java: how a name is bound above the cursor", () => {
  it.each([
    { text: "Store store = open();\nstore.│", name: "store", want: "type Store" },
    { text: "final List<Item> items = load();\nitems.│", name: "items", want: "type List<Item>" },
    { text: "var s = new Store(dir);\ns.│", name: "s", want: "type Store" },
    { text: "var s = Stores.open(dir);\ns.│", name: "s", want: "value Stores.open(dir)" },
    { text: "void put(Node node, int n) {\n  node.│", name: "node", want: "type Node" },
    { text: "void put(@Nullable Node node) {\n  node.│", name: "node", want: "type Node" },
    { text: "for (Element el : doc.children()) {\n  el.│", name: "el", want: "type Element" },
    { text: "for (var el : elements) {\n  el.│", name: "el", want: "value elements inner" },
    {
      text: "private final org.jsoup.nodes.Document doc;\ndoc.│",
      name: "doc",
      want: "type org.jsoup.nodes.Document",
    },
    {
      text: "Map<String, Attribute> attrs = new HashMap<>();\nattrs.│",
      name: "attrs",
      want: "type Map<String, Attribute>",
    },
    { text: "return node;\nnode.│", name: "node", want: undefined },
    { text: "render(a, node);\nnode.│", name: "node", want: undefined },
    { text: "if (x instanceof Node node) {\n  node.│", name: "node", want: "type Node" },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(java.binding(scope(java, text), name))).toBe(want);
  });
});

describe("Java: the rest of the table", () => {
  it.each([
    { lines: "  private final Tokeniser tokeniser;", name: "tokeniser", want: "type Tokeniser" },
    { lines: "  protected Element root = new Element(tag);", name: "root", want: "type Element" },
    { lines: "  public Element parent() {", name: "parent", want: "type Element" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(java.declared(scope(java, lines), name))).toBe(want);
  });

  it.each([
    { lines: "  public Element appendChild(Node child) {", name: "appendChild", want: "Element" },
    {
      lines: "  /** Doc. */\n  @Override\n  public <T> List<T> all(Class<T> c) {",
      name: "all",
      want: "List<T>",
    },
    { lines: "  public static Document parse(String html);", name: "parse", want: "Document" },
    { lines: "  public Element(String tag) {", name: "Element", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(java.returns(scope(java, lines), name)).toBe(want);
  });

  it("reads the class around the cursor, bases and constructors", () => {
    expect(java.selfType(scope(java, "public class Element extends Node {\n  void f() {\n    this.│"))).toBe(
      "Element",
    );
    expect(java.selfType(scope(java, "class A {}\nclass B {\n  │"))).toBe("B");
    const header = "public class Element<T> extends Node implements Iterable<Element>, Cloneable {";
    expect(java.bases(scope(java, header), "Element")).toEqual(["Node", "Iterable<Element>"]);
    expect(java.hidden("Element", "  public Element(String tag) {")).toBe(true);
    expect(java.hidden("tag", "  public String tag() {")).toBe(false);
  });

  it.each([
    { type: "List<Element>", element: "Element" },
    { type: "Element[]", element: "Element" },
    { type: "Map<String, Element>", element: "none" },
  ])("element of $type", ({ type, element }) => {
    const found = java.element(parseType(type, java.types));
    expect(found ? printType(found) : "none").toBe(element);
  });
});

const NODE = code`
  package org.x.nodes;

  public abstract class Node {
      public Node parent() { return null; }
  }
`;
const ELEMENT = code`
  package org.x.nodes;

  import java.util.List;

  public class Element extends Node {
      private final String tag;

      public Element(String tag) { this.tag = tag; }

      public Element appendChild(Node child) {
          return this;
      }

      public String text() {
          return tag;
      }
  }
`;
const PARSER = code`
  package org.x.parser;

  import org.x.nodes.Element;

  public class Parser {
      public static Element parse(String html) {
          return new Element("html");
      }
  }
`;

describe("Java: the member outline of a receiver's type", () => {
  const files = (app: string) => ({
    "/w/src/org/x/nodes/Node.java": NODE,
    "/w/src/org/x/nodes/Element.java": ELEMENT,
    "/w/src/org/x/parser/Parser.java": PARSER,
    "/w/src/org/x/app/App.java": app,
  });
  const app = (body: string) =>
    `package org.x.app;\n\nimport org.x.nodes.Element;\nimport org.x.parser.Parser;\n\npublic class App {\n${body}`;

  it("types a local from a static method's return type: header, members, the base's", async () => {
    const out = await outlinesAt(
      "java",
      files(app(`    void run() {\n        Element el = Parser.parse("x");\n        el.${HERE}`)),
      "/w/src/org/x/app/App.java",
    );
    expect(out).toEqual([
      "/w/src/org/x/nodes/Element.java:\n" +
        "public class Element extends Node {\n" +
        "    public Element appendChild(Node child) { … }\n" +
        "    public String text() { … }\n" +
        "}",
      "/w/src/org/x/nodes/Node.java:\npublic abstract class Node {\n    public Node parent() { return null; }\n}",
    ]);
  });

  it.each([
    { name: "var of new", body: `    void run() {\n        var el = new Element("p");\n        el.${HERE}` },
    { name: "a parameter", body: `    void run(Element el) {\n        el.${HERE}` },
    { name: "a call's result", body: `    void run() {\n        Parser.parse("x").${HERE}` },
    { name: "a chained call", body: `    void run(Element el) {\n        el.appendChild(el).${HERE}` },
    {
      name: "a field read without this",
      body: `    void run() {\n        root.${HERE}\n    }\n    private Element root;\n}`,
    },
    {
      name: "this.field",
      body: `    private final Element root = null;\n    void run() {\n        this.root.${HERE}`,
    },
  ])("types $name", async ({ body }) => {
    const [own] = await outlinesAt("java", files(app(body)), "/w/src/org/x/app/App.java");
    expect(own).toContain("public Element appendChild(Node child)");
  });
});
