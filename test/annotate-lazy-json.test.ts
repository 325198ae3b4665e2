import { describe, expect, it } from "vitest";
import { LazyJsonObject } from "../src/annotate/lazy-json.js";

describe("LazyJsonObject", () => {
  it("answers as JSON.parse does, parsing a value only when asked", () => {
    const text = ' { "a" : 1 , "b\\"c":[1,{"x":"}]\\\\"}], "a": {"y": "\\u00e4"}, "e": -1.5e3, "t": true, "n": null, "constructor": "k" } ';
    const full = JSON.parse(text) as Record<string, unknown>;
    const lazy = new LazyJsonObject<unknown>(text);
    expect(lazy.size).toBe(Object.keys(full).length);
    for (const k of Object.keys(full)) expect(lazy.get(k)).toEqual(full[k]);
    expect(lazy.get("a")).toEqual({ y: "ä" }); // the last of a repeated key
    expect(lazy.get("toString")).toBeUndefined(); // own keys only
    expect(lazy.has("missing")).toBe(false);
    expect(new LazyJsonObject("{}").size).toBe(0);
    expect(() => new LazyJsonObject("[1]")).toThrow(SyntaxError);
  });
});
