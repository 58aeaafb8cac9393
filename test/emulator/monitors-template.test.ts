// Unit tests of the custom webhook's template renderer (a subset of Go's text/template).
import { describe, expect, it } from "vitest";
import { parseTemplate, renderTemplate, TemplateError } from "../../src/emulator/monitors/template";

const data = {
  Action: "Open",
  MonitorID: "mon_1",
  Title: "errors",
  Description: "5xx over threshold",
  Body: "value 12 is above 10",
  Value: 12,
  Timestamp: "2026-01-01T00:05:00Z",
  QueryStartTime: "2026-01-01T00:00:00Z",
  QueryEndTime: "2026-01-01T00:05:00Z",
  MatchedEvent: { status: 503, path: "/a \"b\"", nested: { x: 1 } },
  GroupKeys: ["host"],
  GroupValues: ["web-1"],
};

describe("template renderer", () => {
  it("prints the documented variables as Go prints them", () => {
    expect(renderTemplate("{{.Action}} {{ .MonitorID }} {{.Title}}: {{.Value}} at {{.Timestamp}} [{{.QueryStartTime}}, {{.QueryEndTime}})", data)).toBe(
      "Open mon_1 errors: 12 at 2026-01-01T00:05:00Z [2026-01-01T00:00:00Z, 2026-01-01T00:05:00Z)",
    );
    expect(renderTemplate("{{.Value}}|{{.V2}}|{{.V3}}|{{.GroupValues}}", { Value: 0.5, V2: 1e21, V3: -3 , GroupValues: ["a", "b"]})).toBe("0.5|1e+21|-3|[a b]");
    expect(renderTemplate("{{.MatchedEvent.status}} {{.MatchedEvent.nested.x}} {{.Missing}}", data)).toBe("503 1 <no value>");
  });

  it("writes values as JSON with jsonObject and jsonArray, also at the end of a pipeline", () => {
    const body = renderTemplate('{"event": {{jsonObject .MatchedEvent}}, "groups": {{ .GroupValues | jsonArray }}, "title": {{ jsonObject .Title }}}', data);
    expect(JSON.parse(body)).toEqual({ event: data.MatchedEvent, groups: ["web-1"], title: "errors" });
  });

  it("branches with if eq / else if / else", () => {
    const src = '{{ if eq .Action "Open" }}firing{{ else if eq .Action "Closed" }}resolved{{ else }}other{{ end }}';
    expect(renderTemplate(src, data)).toBe("firing");
    expect(renderTemplate(src, { ...data, Action: "Closed" })).toBe("resolved");
    expect(renderTemplate(src, { ...data, Action: "x" })).toBe("other");
    expect(renderTemplate('{{ if and (gt .Value 10) (ne .Title "") }}big{{ end }}{{ if not .Missing }}!{{ end }}', data)).toBe("big!");
    expect(renderTemplate('{{ if eq .Action "Closed" "Open" }}one of{{ end }}', data)).toBe("one of");
  });

  it("ranges with variables, trims space with dashes, skips comments", () => {
    const src = "{{- range $i, $k := .GroupKeys }}\n  {{ $k }}={{ index $.GroupValues $i }}\n{{- end }} {{/* ignored */}}{{ with .MatchedEvent }}{{ .status }}{{ end }}";
    expect(renderTemplate(src, data)).toBe("\n  host=web-1 503");
    expect(renderTemplate("{{ range .Empty }}x{{ else }}none{{ end }}", { Empty: [] })).toBe("none");
    expect(renderTemplate("{{ $v := .Value }}{{ $v }} {{ len .GroupKeys }} {{ print .Title \"!\" }}", data)).toBe("12 1 errors!");
  });

  it("does not escape HTML, as text/template does not", () => {
    expect(renderTemplate("{{.T}}", { T: "<b>&</b>" })).toBe("<b>&</b>");
  });

  it("refuses invalid templates with a message naming the problem and its line", () => {
    const bad: [string, RegExp][] = [
      ["{{ .Action ", /unclosed action at line 1/],
      ["a\n{{ if .Action }}x", /unclosed "if" at line 2/],
      ["{{ end }}", /unexpected \{\{ end \}\}/],
      ["{{ upper .Title }}", /function "upper" not defined/],
      ["{{ template \"x\" }}", /"template" is not supported/],
      ["{{ .Title 1 }}", /./],
    ];
    for (const [src, message] of bad) {
      expect(() => renderTemplate(src, data), src).toThrow(TemplateError);
      expect(() => renderTemplate(src, data), src).toThrow(message);
    }
  });

  it("bounds the rendered size", () => {
    const t = parseTemplate("{{ range .N }}0123456789{{ end }}");
    expect(() => t.render({ N: 200_000 })).toThrow(/longer than/);
  });
});
