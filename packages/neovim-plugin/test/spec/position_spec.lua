-- Byte columns <-> LSP characters in each position encoding, on 0.10's and 0.11+'s vim.str_* signatures.
local h = require("helpers")
local position = require("infill.position")

-- "é" is 2 bytes, 1 UTF-16 unit, 1 code point; "😀" is 4 bytes, 2 UTF-16 units, 1 code point.
local line = "aé😀b"

describe("position", function()
  local cases = {
    -- byte col, utf-8, utf-16, utf-32
    { 0, 0, 0, 0 },
    { 1, 1, 1, 1 },
    { 3, 3, 2, 2 },
    { 7, 7, 4, 3 },
    { 8, 8, 5, 4 },
  }
  for _, c in ipairs(cases) do
    it(("byte %d <-> utf-8 %d, utf-16 %d, utf-32 %d"):format(c[1], c[2], c[3], c[4]), function()
      h.eq(c[2], position.to_character(line, c[1], "utf-8"))
      h.eq(c[3], position.to_character(line, c[1], "utf-16"))
      h.eq(c[4], position.to_character(line, c[1], "utf-32"))
      h.eq(c[1], position.to_byte(line, c[2], "utf-8"))
      h.eq(c[1], position.to_byte(line, c[3], "utf-16"))
      h.eq(c[1], position.to_byte(line, c[4], "utf-32"))
    end)
  end

  it("clamps past the end of the line", function()
    h.eq(#line, position.to_byte(line, 99, "utf-8"))
    h.eq(#line, position.to_byte(line, 99, "utf-16"))
    h.eq(#line, position.to_byte(line, 99, "utf-32"))
    h.eq(5, position.to_character(line, 99, "utf-16"))
    h.eq(0, position.to_byte("", 3, "utf-16"))
  end)

  it("counts a line's units", function()
    h.eq(8, position.units(line, "utf-8"))
    h.eq(5, position.units(line, "utf-16"))
    h.eq(4, position.units(line, "utf-32"))
  end)
end)
