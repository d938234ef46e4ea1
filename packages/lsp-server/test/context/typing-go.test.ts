// Go's typing rule table, row by row, then the member outline of a receiver's type across packages (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const go = rules("go");

describe("Go: how a name is bound above the cursor", () => {
  it.each([
    { text: "reg := prometheus.NewRegistry()\nreg.│", name: "reg", want: "value prometheus.NewRegistry()" },
    { text: "c, err := NewClient(addr)\nc.│", name: "c", want: "value NewClient(addr) [0]" },
    { text: "n, c, err := open()\nc.│", name: "c", want: "value open() [1]" },
    { text: "h := &Handler{opts: o}\nh.│", name: "h", want: "value &Handler{opts: o}" },
    { text: "var buf Buffer\nbuf.│", name: "buf", want: "type Buffer" },
    { text: "var def = NewDefault()\ndef.│", name: "def", want: "value NewDefault()" },
    { text: "for _, m := range metrics {\n\tm.│", name: "m", want: "value metrics inner" },
    { text: "for i := range metrics {\n\ti.│", name: "i", want: undefined },
    { text: "func (r *Registry) Register(c Collector) error {\n\tr.│", name: "r", want: "type *Registry" },
    { text: "func (r *Registry) Register(c Collector) error {\n\tc.│", name: "c", want: "type Collector" },
    {
      text: "func handle(w, other http.ResponseWriter, req *http.Request) {\n\tw.│",
      name: "w",
      want: "type http.ResponseWriter",
    },
    { text: "go func(ch chan<- Metric) {\n\tch.│", name: "ch", want: "type chan<- Metric" },
    { text: "if s, ok := v.(*Summary); ok {\n\ts.│", name: "s", want: "value v.(*Summary) [0]" },
    { text: "render(c)\nc.│", name: "c", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(go.binding(scope(go, text), name))).toBe(want);
  });
});

describe("Go: the rest of the table", () => {
  it.each([
    { lines: "\tconn *Conn", name: "conn", want: "type *Conn" },
    { lines: '\tName, Help string `json:"name"`', name: "Help", want: "type string" },
    {
      lines: "var DefaultRegisterer Registerer = NewRegistry()",
      name: "DefaultRegisterer",
      want: "type Registerer",
    },
    { lines: "\tDescribe(chan<- *Desc)", name: "Describe", want: undefined },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(go.declared(scope(go, lines), name))).toBe(want);
  });

  it.each([
    { lines: "func NewRegistry() *Registry {", name: "NewRegistry", want: "*Registry" },
    {
      lines: "func (r *Registry) Gather() ([]*dto.MetricFamily, error) {",
      name: "Gather",
      want: "([]*dto.MetricFamily, error)",
    },
    { lines: "func Open(path string) (db *DB, err error) {", name: "Open", want: "(*DB, error)" },
    { lines: "func Map[T any](xs []T) Result[T] {", name: "Map", want: "Result[T]" },
    { lines: "\tCollect(ch chan<- Metric)", name: "Collect", want: undefined },
    { lines: "\tDesc() *Desc", name: "Desc", want: "*Desc" },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(go.returns(scope(go, lines), name)).toBe(want);
  });

  it("reads the types a struct embeds, and aliases", () => {
    const struct = 'type counter struct {\n\tselfCollector\n\t*metrics.Base\n\tdesc *Desc `x:"y"`\n}';
    expect(go.bases(scope(go, struct), "counter")).toEqual(["selfCollector", "metrics.Base"]);
    expect(go.aliased!(scope(go, "type Labels map[string]string"), "Labels")).toBe("map[string]string");
    expect(go.aliased!(scope(go, "type Handler = http.Handler"), "Handler")).toBe("http.Handler");
    expect(go.aliased!(scope(go, "type T struct {"), "T")).toBeUndefined();
  });

  it.each([
    { type: "*Registry", accessed: "Registry", element: "none" },
    { type: "[]*Metric", accessed: "none", element: "&Metric" },
    { type: "Result[T]", accessed: "Result<T>", element: "none" },
  ])("$type", ({ type, accessed, element }) => {
    const show = (t: ReturnType<typeof go.accessed>) => (t ? printType(t) : "none");
    expect(show(go.accessed(parseType(type, go.types)))).toBe(accessed);
    expect(show(go.element(parseType(type, go.types)))).toBe(element);
  });
});

const REGISTRY = code`
  package prometheus

  // Registry registers collectors.
  type Registry struct {
  	mtx        sync.RWMutex
  	collectors map[uint64]Collector
  }

  // NewRegistry creates a registry.
  func NewRegistry() *Registry {
  	return &Registry{}
  }

  // Register registers a collector.
  func (r *Registry) Register(c Collector) error {
  	r.mtx.Lock()
  	defer r.mtx.Unlock()
  	return nil
  }

  func (r *Registry) Gather() ([]*MetricFamily, error) { return nil, nil }
`;

describe("Go: the member outline of a receiver's type", () => {
  const env = { root: "/w", goModule: { path: "example.com/m", dir: "/w" } };
  const files = (app: string) => ({
    "/w/prometheus/registry.go": REGISTRY,
    "/w/cmd/app.go": app,
  });

  it("types a local from a package function's return type, methods after the struct", async () => {
    const app = `package main\n\nimport "example.com/m/prometheus"\n\nfunc main() {\n\treg := prometheus.NewRegistry()\n\treg.${HERE}`;
    expect(await outlinesAt("go", files(app), "/w/cmd/app.go", { env })).toEqual([
      // Its fields are not exported: another package sees none of them.
      "/w/prometheus/registry.go:\n" +
        "type Registry struct {\n" +
        "}\n" +
        "func (r *Registry) Register(c Collector) error { … }\n" +
        "func (r *Registry) Gather() ([]*MetricFamily, error) { return nil, nil }",
    ]);
  });

  it.each([
    {
      name: "a composite literal",
      app: `package main\nimport "example.com/m/prometheus"\nfunc f() {\n\tr := &prometheus.Registry{}\n\tr.${HERE}`,
    },
    {
      name: "a parameter",
      app: `package main\nimport "example.com/m/prometheus"\nfunc f(r *prometheus.Registry) {\n\tr.${HERE}`,
    },
    {
      name: "the first of two results",
      app: `package main\nimport "example.com/m/prometheus"\nfunc open() (*prometheus.Registry, error) { return nil, nil }\nfunc f() {\n\tr, err := open()\n\tr.${HERE}`,
    },
  ])("types $name", async ({ app }) => {
    const [own] = await outlinesAt("go", files(app), "/w/cmd/app.go", { env });
    expect(own).toContain("func (r *Registry) Register(c Collector) error");
  });

  it("types a receiver's field through the struct in another file of the package", async () => {
    const out = await outlinesAt(
      "go",
      {
        "/w/prometheus/registry.go": REGISTRY,
        "/w/prometheus/server.go": `package prometheus\n\ntype Server struct {\n\treg *Registry\n}\n\nfunc (s *Server) Serve() {\n\ts.reg.${HERE}`,
      },
      "/w/prometheus/server.go",
      { env },
    );
    expect(out[0]).toContain("func (r *Registry) Gather() ([]*MetricFamily, error)");
  });
});
