import { describe, expect, it } from "vitest";
import { lua, parseLua } from "../../src/context/lang/lua.js";
import { code, declaration, importRows, referenceRows, summary } from "./helpers.js";

describe("lua imports", () => {
  it.each([
    { text: 'local util = require("infill.util")', want: [["infill.util", "util=*"]] },
    { text: "local cfg = require 'infill.config'", want: [["infill.config", "cfg=*"]] },
    { text: "local f = require('a.b').field", want: [["a.b", "f=field"]] },
    { text: 'require("side.effect")', want: [["side.effect"]] },
    { text: "M.dep = require [[long.name]]", want: [["long.name", "dep=*"]] },
    { text: "local function f()\n  local x = require('inner')\nend", want: [["inner", "x=*"]] },
    { text: "-- require('no')\nlocal s = \"require('no')\"", want: [] },
    { text: "vim.require('no')", want: [] },
  ])("$text", ({ text, want }) => {
    const { imports } = parseLua(text);
    expect(importRows(imports)).toEqual(want);
  });
});

const MODULE = code`
  local util = require("infill.util")
  local M = {}

  ---Sets things up.
  ---@param opts table
  function M.setup(opts)
    local x = 1
    if x then
      print(x)
    end
    for i = 1, 3 do
      print(i)
    end
  end

  function M:method(a, b)
    return a + b
  end

  M.value = 42
  M.fn = function(a) return a end

  local function helper(x)
    return x
  end

  local H = {}
  function H.other() end

  return M`;

describe("lua outline", () => {
  it("takes the fields of the returned table as the exports", () => {
    expect(summary(parseLua(MODULE).outline.declarations)).toEqual([
      "variable M 1-1@1",
      "function setup 3-13@5 +",
      "function method 15-17@15 +",
      "field value 19-19@19 +",
      "function fn 20-20@20 +",
      "function helper 22-24@22",
      "variable H 26-26@26",
      "function H.other 27-27@27",
    ]);
  });

  it("keeps LuaCATS annotations and elides a long body", () => {
    expect(declaration(parseLua(MODULE).outline.declarations, "setup").snippet).toBe(code`
      ---Sets things up.
      ---@param opts table
      function M.setup(opts)
        …
      end`);
  });

  it("reads a returned table constructor, local functions by their own names", () => {
    const { outline } = parseLua(code`
      local function a() end
      local function helper() end
      return {
        a = a,
        b = helper,
        c = function(x, y) local p, q = x, y return p end,
        d = 1,
      }`);
    expect(summary(outline.declarations)).toEqual([
      "function a 0-0@0 +",
      "function helper 1-1@1 +",
      "function c 5-5@5 +",
      "field d 6-6@6 +",
    ]);
    expect(outline.localExports).toEqual([
      { exported: "a", local: "a" },
      { exported: "b", local: "helper" },
    ]);
  });

  it("reads fields of a table constructor assigned to the module table", () => {
    const { outline } = parseLua("local M = {\n  x = 1,\n  ['y'] = function() end,\n}\nreturn M\n");
    expect(summary(outline.declarations)).toEqual([
      "field x 1-1@1 +",
      "function y 2-2@2 +",
      "variable M 0-3@0",
    ]);
  });
});

describe("lua references", () => {
  it.each([
    { lines: ["local v = util.trim(", ""], want: ["util.trim@1", "v@1"] },
    { lines: ["obj:method(a .. b)"], want: ["b@0", "a@0", "obj.method@0"] },
    { lines: ["if not x then return end -- y()"], want: ["x@0"] },
  ])("$lines", ({ lines, want }) => {
    expect(referenceRows(lua.references(lines))).toEqual(want);
  });
});

describe("lua candidates", () => {
  it("looks under lua/, the root, and the file's own lua/ folder", () => {
    expect(lua.candidates("infill.util", "/w/plugin/lua/infill/init.lua", { root: "/w" })).toEqual([
      "/w/lua/infill/util.lua",
      "/w/lua/infill/util/init.lua",
      "/w/infill/util.lua",
      "/w/infill/util/init.lua",
      "/w/plugin/lua/infill/util.lua",
      "/w/plugin/lua/infill/util/init.lua",
    ]);
    expect(lua.candidates("../etc", "/w/a.lua", { root: "/w" })).toEqual([]);
  });
});
