import { describe, expect, it } from "vitest";
import { go, parseGo } from "../../src/context/lang/go.js";
import { code, declaration, importRows, referenceRows, summary } from "./helpers.js";

describe("go imports", () => {
  it.each([
    { text: 'import "fmt"', want: [["fmt", "fmt=*"]] },
    { text: 'import m "example.com/m/models"', want: [["example.com/m/models", "m=*"]] },
    {
      text: code`
        import (
        	"fmt"
        	_ "embed"
        	. "example.com/m/util"
        	yaml "gopkg.in/yaml.v3"
        	"github.com/x/go-chi/v5" // a comment "quoted"
        )`,
      want: [
        ["fmt", "fmt=*"],
        ["embed"],
        ["example.com/m/util", "*=*"],
        ["gopkg.in/yaml.v3", "yaml=*"],
        ["github.com/x/go-chi/v5", "chi=*"],
      ],
    },
  ])("$text", ({ text, want }) => {
    const { imports } = parseGo(`package p\n${text}\n`);
    expect(importRows(imports)).toEqual(want);
  });
});

const FILE = code`
  package server

  // Server serves.
  type Server struct {
  	Addr string
  	port, backlog int
  	*log.Logger
  }

  type (
  	// Handler handles.
  	Handler interface {
  		Serve(w Writer) error
  		io.Closer
  	}
  	ID = string
  )

  const (
  	A Kind = iota
  	B
  )

  var x, y = 1, 2

  // Start starts it.
  func (s *Server) Start(ctx context.Context) error {
  	fmt.Println("a")
  	fmt.Println("b")
  	fmt.Println("c")
  	fmt.Println("d")
  	fmt.Println("e")
  	fmt.Println("f")
  	return nil
  }

  func New[T any](addr string) *Server { return &Server{Addr: addr} }

  func (o *Other) Elsewhere() {}`;

describe("go outline", () => {
  it("finds types with fields and methods, grouped specs, functions", () => {
    expect(summary(parseGo(FILE).outline.declarations)).toEqual([
      "struct Server 2-7@3 +",
      "  field Addr 4-4@4 +",
      "  field port 5-5@5",
      "  field backlog 5-5@5",
      "  field Logger 6-6@6 +",
      "  method Start 25-34@26 +",
      "interface Handler 10-14@11 +",
      "  method Serve 12-12@12 +",
      "  field Closer 13-13@13 +",
      "type ID 15-15@15 +",
      "variable A 18-21@19 +",
      "variable B 18-21@20 +",
      "variable x 23-23@23",
      "variable y 23-23@23",
      "function New 36-36@36 +",
      "method Other.Elsewhere 38-38@38 +",
    ]);
  });

  it("elides a long method's body and keeps its doc comment", () => {
    expect(declaration(parseGo(FILE).outline.declarations, "Start").snippet).toBe(code`
      // Start starts it.
      func (s *Server) Start(ctx context.Context) error {
      	…
      }`);
  });

  it("gives each name of a small const group the whole group", () => {
    expect(declaration(parseGo(FILE).outline.declarations, "B").snippet).toBe(
      "const (\n\tA Kind = iota\n\tB\n)",
    );
  });
});

describe("go references", () => {
  it.each([
    { lines: ["s := models.NewUser(", ""], want: ["models.NewUser@1", "s@1"] },
    { lines: ["if err != nil {", "return len(x), helper(y)"], want: ["y@0", "helper@0", "x@0", "err@1"] },
  ])("$lines", ({ lines, want }) => {
    expect(referenceRows(go.references(lines))).toEqual(want);
  });
});

describe("go candidates", () => {
  const env = { root: "/w", goModule: { path: "example.com/m", dir: "/w" } };
  it.each([
    { specifier: "example.com/m/models", want: ["/w/models/"] },
    { specifier: "example.com/m", want: ["/w/"] },
    { specifier: "example.com/mother", want: [] },
    { specifier: "fmt", want: [] },
  ])("$specifier", ({ specifier, want }) => {
    expect(go.candidates(specifier, "/w/cmd/main.go", env)).toEqual(want);
  });

  it("resolves nothing without a go.mod", () => {
    expect(go.candidates("example.com/m/models", "/w/main.go", { root: "/w" })).toEqual([]);
  });
});
