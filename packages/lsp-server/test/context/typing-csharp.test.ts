// C#'s typing rule table, row by row, then the member outline of a receiver's type across files (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const cs = rules("csharp");

describe("C#: how a name is bound above the cursor", () => {
  it.each([
    { text: "JsonReader reader = CreateReader();\nreader.│", name: "reader", want: "type JsonReader" },
    {
      text: "var w = new JsonTextWriter(sw) { Formatting = f };\nw.│",
      name: "w",
      want: "type JsonTextWriter",
    },
    { text: "var t = await LoadAsync(path);\nt.│", name: "t", want: "value await LoadAsync(path)" },
    {
      text: "using var scope = provider.CreateScope();\nscope.│",
      name: "scope",
      want: "value provider.CreateScope()",
    },
    {
      text: "void Write(JsonWriter writer, object value) {\n  writer.│",
      name: "writer",
      want: "type JsonWriter",
    },
    { text: "bool TryGet(string key, out JToken token) {\n  token.│", name: "token", want: "type JToken" },
    { text: "static void Ext(this JToken token) {\n  token.│", name: "token", want: "type JToken" },
    { text: "foreach (JProperty p in o.Properties()) {\n  p.│", name: "p", want: "type JProperty" },
    { text: "foreach (var p in props) {\n  p.│", name: "p", want: "value props inner" },
    { text: "if (value is JValue v && v.│", name: "v", want: "type JValue" },
    {
      text: "private readonly IList<JToken> _values;\n_values.│",
      name: "_values",
      want: "type IList<JToken>",
    },
    {
      text: "int? count = null;\nJsonContract contract = null;\ncontract.│",
      name: "contract",
      want: "type JsonContract",
    },
    { text: "return reader;\nreader.│", name: "reader", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(cs.binding(scope(cs, text), name))).toBe(want);
  });
});

describe("C#: the rest of the table", () => {
  it.each([
    {
      lines: "    private readonly JsonSerializer _serializer;",
      name: "_serializer",
      want: "type JsonSerializer",
    },
    { lines: "    public JsonContract Contract { get; set; }", name: "Contract", want: "type JsonContract" },
    { lines: "    public JToken Root => _root;", name: "Root", want: "type JToken" },
    { lines: "    public JToken? Parent { get; internal set; }", name: "Parent", want: "type JToken?" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(cs.declared(scope(cs, lines), name))).toBe(want);
  });

  it.each([
    { lines: "    public virtual JToken SelectToken(string path)", name: "SelectToken", want: "JToken" },
    {
      lines: "    public async Task<JObject> LoadAsync(JsonReader r) {",
      name: "LoadAsync",
      want: "Task<JObject>",
    },
    { lines: "    /// <summary>x</summary>\n    public T ToObject<T>() {", name: "ToObject", want: "T" },
    { lines: "    public JObject(JObject other) : base(other) {", name: "JObject", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(cs.returns(scope(cs, lines), name)).toBe(want);
  });

  it("reads the class around the cursor, bases, awaits and constructors", () => {
    expect(cs.selfType(scope(cs, "public partial class JObject : JContainer {\n  void F() {\n    │"))).toBe(
      "JObject",
    );
    expect(
      cs.bases(
        scope(cs, "public class JObject<T> : JContainer, IDictionary<string, JToken> where T : new() {"),
        "JObject",
      ),
    ).toEqual(["JContainer", "IDictionary<string, JToken>"]);
    const show = (t: ReturnType<typeof cs.awaited>) => (t ? printType(t) : "none");
    expect(show(cs.awaited(parseType("Task<JObject>", cs.types)))).toBe("JObject");
    expect(show(cs.awaited(parseType("Task", cs.types)))).toBe("none");
    expect(show(cs.accessed(parseType("JToken?", cs.types)))).toBe("JToken");
    expect(show(cs.element(parseType("IEnumerable<JToken>", cs.types)))).toBe("JToken");
    expect(cs.hidden("JObject", "    public JObject(JObject other)")).toBe(true);
  });
});

const TOKEN = code`
  namespace Json.Linq
  {
      public abstract class JToken
      {
          public JToken Parent { get; set; }

          public virtual JToken SelectToken(string path)
          {
              return null;
          }
      }
  }
`;
const OBJECT = code`
  using System.Threading.Tasks;

  namespace Json.Linq
  {
      public class JObject : JToken
      {
          public JObject(JObject other) { }

          public void Add(string name, JToken value)
          {
          }

          public static Task<JObject> LoadAsync(string path)
          {
              return null;
          }
      }
  }
`;

describe("C#: the member outline of a receiver's type", () => {
  const files = (app: string) => ({
    "/w/Linq/JToken.cs": TOKEN,
    "/w/Linq/JObject.cs": OBJECT,
    "/w/App/Program.cs": app,
  });
  const app = (body: string) =>
    `using Json.Linq;\n\nnamespace Json.App\n{\n    public class Program\n    {\n${body}`;

  it("types an awaited Task<X>: header, members, the base's", async () => {
    const out = await outlinesAt(
      "csharp",
      files(
        app(
          `        async Task Run()\n        {\n            var o = await JObject.LoadAsync("x");\n            o.${HERE}`,
        ),
      ),
      "/w/App/Program.cs",
    );
    expect(out[0]).toContain("public class JObject : JToken");
    expect(out[0]).toContain("public void Add(string name, JToken value)");
    expect(out[0]).not.toContain("public JObject(JObject other)");
    expect(out[1]).toContain("public virtual JToken SelectToken(string path)");
  });

  it.each([
    { name: "a parameter", body: `        void Run(JObject o)\n        {\n            o.${HERE}` },
    {
      name: "new",
      body: `        void Run()\n        {\n            var o = new JObject(null);\n            o.${HERE}`,
    },
    {
      name: "a null-conditional access",
      body: `        void Run(JObject o)\n        {\n            o?.${HERE}`,
    },
    {
      name: "a field read without this",
      body: `        void Run()\n        {\n            _root.${HERE}\n        }\n        private JObject _root;\n    }\n}`,
    },
  ])("types $name", async ({ body }) => {
    const [own] = await outlinesAt("csharp", files(app(body)), "/w/App/Program.cs");
    expect(own).toContain("public void Add(string name, JToken value)");
  });
});
