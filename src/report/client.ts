/**
 * The page script. `renderReport` runs in the browser: the HTML embeds its source text (so it must stay
 * self-contained: no imports, no outer variables) and calls it with the report data and chart.js.
 */
import type { ReportData } from "./model.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function renderReport(data: ReportData, Chart: any): void {
  type Block = ReportData["sections"][number]["blocks"][number];
  type View = Extract<Block, { type: "segments" }>["view"];
  type Detail = View["details"][string];
  const BLUE = "#0072B2";
  const VERMILLION = "#D55E00";
  const GREY = "#999999";
  const charts: unknown[] = [];

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...kids: Array<Node | string>): HTMLElementTagNameMap[K] => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    for (const k of kids) e.append(k);
    return e;
  };
  const fmt = (x: number | null | undefined, d = 3): string => (x === null || x === undefined ? "–" : x.toFixed(d));

  function chartBlock(spec: Extract<Block, { type: "chart" }>["chart"]): HTMLElement {
    const canvas = el("canvas", { id: `chart-${spec.id}`, role: "img", "aria-label": spec.title });
    const box = el("div", { class: "chart-box", style: `height:${spec.height}px` }, canvas);
    const fig = el("figure", { class: "chart", "data-chart": spec.id }, el("h4", {}, spec.title), box);
    if (spec.caption) fig.append(el("figcaption", {}, spec.caption));
    // Created after insertion so chart.js can measure the container.
    queueMicrotask(() => charts.push(new Chart(canvas, spec.config)));
    return fig;
  }

  function tableBlock(t: Extract<Block, { type: "table" }>): HTMLElement {
    const head = el("tr", {}, ...t.columns.map((c, i) => el("th", { class: t.align?.[i] === "r" ? "r" : "" }, c)));
    const body = el("tbody");
    for (const r of t.rows) body.append(el("tr", {}, ...r.map((c, i) => el("td", { class: t.align?.[i] === "r" ? "r" : "" }, c))));
    const wrap = el("div", { class: "table-wrap" + (t.rows.length > 14 ? " tall" : "") }, el("table", {}, el("thead", {}, head), body));
    const out = el("div", { class: "table-block" });
    if (t.caption) out.append(el("div", { class: "table-caption" }, `${t.caption} (${t.rows.length} row${t.rows.length === 1 ? "" : "s"})`));
    out.append(wrap);
    if (t.note) out.append(el("p", { class: "note" }, t.note));
    return out;
  }

  function kvBlock(items: Array<[string, string]>): HTMLElement {
    const dl = el("dl", { class: "kv" });
    for (const [k, v] of items) dl.append(el("dt", {}, k), el("dd", {}, v));
    return dl;
  }

  /** One pronoun's attention over the keys as a strip of shaded tokens (Figures 5-6 of the paper). */
  function heatRow(ctx: string[], sent: string[], pron: [number, number, number[]], label: string): HTMLElement {
    const [at, u, att] = pron;
    const toks = ctx.concat(sent);
    const max = Math.max(1, ...att);
    const strip = el("div", { class: "strip" });
    toks.forEach((t, k) => {
      if (k === ctx.length && ctx.length) strip.append(el("span", { class: "sep", title: "context | sentence" }, "‖"));
      const w = att[k] ?? 0;
      const a = w / max;
      const span = el("span", { class: "tok" + (k === ctx.length + at ? " query" : "") + (k < ctx.length ? " ctx" : ""), title: `${t}: attention ${(w / 1000).toFixed(3)}` }, t);
      span.style.background = `rgba(0,114,178,${a.toFixed(3)})`;
      if (a > 0.55) span.style.color = "#fff";
      strip.append(span);
    });
    return el(
      "div",
      { class: "heat-row" },
      el("div", { class: "heat-label" }, el("b", {}, sent[at] ?? "?"), ` ${label} · u = ${u.toFixed(3)} · max weight ${(max / 1000).toFixed(3)}`),
      strip,
    );
  }

  function sideBlock(d: Detail, sideIdx: number, title: string): HTMLElement {
    const s = d.sides[sideIdx]!;
    const ctx = d.ctx[s.c]!;
    const sent = d.sent[s.w]!;
    const box = el("div", { class: "side" });
    box.append(el("h5", {}, `${title} · y = ${s.y.toFixed(3)}`));
    box.append(el("p", { class: "sentence" }, el("span", { class: "ctx" }, ctx.join(" ")), ctx.length ? " ‖ " : "", el("span", { class: "sent" }, sent.join(" "))));
    if (s.tr) box.append(el("p", { class: "note" }, `${s.tr} older context token(s) were cut off by the model's key limit.`));
    if (!s.p.length) box.append(el("p", { class: "note" }, "No pronoun in this sentence: its score is 0."));
    s.p.forEach((p, j) => box.append(p[2].length === ctx.length + sent.length ? heatRow(ctx, sent, p, `(pronoun ${j + 1} of ${s.p.length})`) : el("p", { class: "note" }, `pronoun ${sent[p[0]] ?? "?"}: u = ${p[1].toFixed(3)} (no attention stored)`)));
    return box;
  }

  function segmentsBlock(v: View): HTMLElement {
    const n = v.segId.length;
    const PAGE = 12;
    const st = { sys: 0, filter: "pronoun", sort: "disagree", page: 0, q: "", selected: -1 };
    const spread = new Float64Array(n);
    const disagree = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      let lo = Infinity;
      let hi = -Infinity;
      let plus = false;
      let minus = false;
      v.systems.forEach((_, s) => {
        const x = v.sysScore[s]![i];
        if (x !== null && x !== undefined) (lo = Math.min(lo, x)), (hi = Math.max(hi, x));
        const c = v.verdict[s]![i];
        if (c === "+") plus = true;
        if (c === "-") minus = true;
      });
      spread[i] = hi >= lo ? hi - lo : -1;
      disagree[i] = plus && minus ? 1 : 0;
    }
    const root = el("div", { class: "segments", id: v.id });
    root.append(
      el("p", { class: "note" }, `y_ref, y_sys: the scorer's scores of the reference's and the system's sentence in context (sum over their pronouns; higher: the model finds its pronouns more plausible). diff: the system against the reference under the aggregate the file was scored with (${v.aggregate}). Verdict: whether diff ≥ −0.00001 (or nothing was compared), the share the system score counts.`),
      el("p", { class: "note" }, v.detailNote),
    );
    const sysSel = el("select", { "aria-label": "system" }, ...v.systems.map((s, i) => el("option", { value: String(i) }, `${i + 1}. ${s}`)));
    const filterSel = el(
      "select",
      { "aria-label": "filter" },
      el("option", { value: "pronoun" }, "pronoun segments (this system)"),
      el("option", { value: "below" }, "ranked below the reference"),
      el("option", { value: "disagree" }, "systems disagree"),
      el("option", { value: "heat" }, "with heat map ◆"),
      el("option", { value: "all" }, "all segments"),
    );
    const sortSel = el(
      "select",
      { "aria-label": "sort" },
      el("option", { value: "disagree" }, "systems disagree most first"),
      el("option", { value: "diff" }, "largest |diff| first"),
      el("option", { value: "order" }, "test-set order"),
    );
    const search = el("input", { type: "search", placeholder: "document or segment id", "aria-label": "find document or segment" });
    root.append(el("div", { class: "controls" }, el("label", {}, "System ", sysSel), el("label", {}, "Show ", filterSel), el("label", {}, "Sort ", sortSel), el("label", {}, "Find ", search)));
    const tbody = el("tbody");
    const cols = ["#", "document", "segment", "reference pronouns", "y_ref", "system pronouns", "y_sys", "diff", "verdict", "◆"];
    const right = new Set([0, 4, 6, 7]);
    root.append(el("div", { class: "table-wrap" }, el("table", { class: "seg-table" }, el("thead", {}, el("tr", {}, ...cols.map((c, i) => el("th", { class: right.has(i) ? "r" : "" }, c)))), tbody)));
    const pager = el("div", { class: "pager" });
    root.append(pager);
    const detail = el("div", { class: "seg-detail" });
    root.append(detail);
    let detailChart: { destroy(): void } | null = null;

    const rows = (): number[] => {
      const s = st.sys;
      const q = st.q.trim().toLowerCase();
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const c = v.verdict[s]![i];
        if (st.filter === "pronoun" && c === ".") continue;
        if (st.filter === "below" && c !== "-") continue;
        if (st.filter === "disagree" && !disagree[i]) continue;
        if (st.filter === "heat" && !v.details[String(i)]) continue;
        if (q && !v.docs[v.doc[i]!]!.toLowerCase().includes(q) && !v.segId[i]!.toLowerCase().includes(q)) continue;
        out.push(i);
      }
      const diff = (i: number): number => {
        const x = v.sysDiff[s]![i];
        return x === null || x === undefined ? -1 : Math.abs(x);
      };
      if (st.sort === "disagree") out.sort((a, b) => disagree[b]! - disagree[a]! || spread[b]! - spread[a]! || a - b);
      else if (st.sort === "diff") out.sort((a, b) => diff(b) - diff(a) || a - b);
      return out;
    };

    const verdictCell = (c: string): HTMLElement =>
      c === "+" ? el("td", { class: "ok" }, "✔ not below") : c === "-" ? el("td", { class: "bad" }, "✘ below") : el("td", { class: "na" }, "– no pronoun");

    const showDetail = (i: number): void => {
      st.selected = i;
      if (detailChart) detailChart.destroy();
      detailChart = null;
      detail.replaceChildren();
      if (i < 0) return;
      const r = v.refScore[i];
      detail.append(el("h4", {}, `Segment #${i + 1}: document ${v.docs[v.doc[i]!]}, segment ${v.segId[i]}`));
      const diffs = v.systems.map((_, s) => {
        const x = v.sysDiff[s]![i];
        return x === null || x === undefined ? null : Math.round(x * 1e4) / 1e4;
      });
      const lab = diffs.map((d, s) => (d === null ? "no pronoun" : `${d >= 0 ? "+" : ""}${d.toFixed(3)} (${v.verdict[s]![i] === "+" ? "not below" : "below"})`));
      const mk = (label: string, want: string, color: string) => ({
        label,
        data: diffs.map((d, s) => (v.verdict[s]![i] === want ? d : null)),
        valueLabels: lab,
        backgroundColor: color,
        borderColor: color,
        grouped: false,
      });
      const canvas = el("canvas", { id: `chart-${v.id}-segment`, role: "img", "aria-label": "score differences for this segment" });
      const h = 110 + v.systems.length * 20;
      detail.append(
        el(
          "figure",
          { class: "chart", "data-chart": `${v.id}-segment` },
          el("h5", {}, `Every system on this segment: diff under the ${v.aggregate} aggregate (reference score y_ref = ${fmt(r)})`),
          el("div", { class: "chart-box", style: `height:${h}px` }, canvas),
          el("figcaption", {}, "Right of zero: the system is not below the reference under the file's aggregate. Systems with no pronoun on either side, or nothing to compare, have no bar."),
        ),
      );
      detailChart = new Chart(canvas, {
        type: "bar",
        data: { labels: v.systems, datasets: [mk("not below the reference", "+", BLUE), mk("below the reference", "-", VERMILLION)] },
        options: {
          indexAxis: "y",
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          layout: { padding: { right: 150 } },
          scales: { x: { title: { display: true, text: "diff (system against the reference)" } }, y: { title: { display: true, text: "system (ranked)" } } },
        },
      });
      const d = v.details[String(i)];
      if (!d) {
        detail.append(
          el("p", { class: "note" }, `No heat map stored for this segment. Reference pronouns: ${v.refPron[i] || "none"}; ${v.systems[st.sys]} pronouns: ${pronOf(st.sys, i) || "none"}.`),
        );
        return;
      }
      const legend = el("div", { class: "heat-legend" }, "attention: ", el("span", { class: "grad" }), " 0 → the row's largest weight (hover a token for its weight). ‖ separates the context from the sentence; the outlined token is the pronoun whose attention the row shows.");
      detail.append(legend);
      const wrap = el("div", { class: "sides" });
      wrap.append(sideBlock(d, d.ref, "Reference"));
      const si = d.sys[st.sys]!;
      // In hybrid mode a system whose pronouns differ in place is scored as the reference with them substituted: say so, since that is the text shown.
      const subNote = d.sub?.[st.sys] ? " (as scored: the reference with this system's pronouns substituted)" : "";
      wrap.append(si >= 0 ? sideBlock(d, si, `System ${v.systems[st.sys]}${subNote}`) : el("p", { class: "note" }, `No scored side stored for ${v.systems[st.sys]} on this segment.`));
      detail.append(wrap);
    };

    const pronOf = (s: number, i: number): string => (v.sysPron[s]![i] === "=" ? v.refPron[i]! : v.sysPron[s]![i]!);

    const render = (): void => {
      const list = rows();
      const pages = Math.max(1, Math.ceil(list.length / PAGE));
      st.page = Math.min(st.page, pages - 1);
      tbody.replaceChildren();
      const s = st.sys;
      for (const i of list.slice(st.page * PAGE, st.page * PAGE + PAGE)) {
        const x = v.sysScore[s]![i];
        const r = v.refScore[i];
        const tr = el(
          "tr",
          { tabindex: "0", class: i === st.selected ? "sel" : "", "data-seg": String(i) },
          el("td", { class: "r" }, String(i + 1)),
          el("td", {}, v.docs[v.doc[i]!]!),
          el("td", {}, v.segId[i]!),
          el("td", {}, v.refPron[i] || "–"),
          el("td", { class: "r" }, fmt(r)),
          el("td", {}, pronOf(s, i) || "–"),
          el("td", { class: "r" }, fmt(x)),
          el("td", { class: "r" }, fmt(v.sysDiff[s]![i])),
          verdictCell(v.verdict[s]![i]!),
          el("td", {}, v.details[String(i)] ? "◆" : ""),
        );
        const pick = (): void => {
          showDetail(i);
          render();
        };
        tr.addEventListener("click", pick);
        tr.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), pick()));
        tbody.append(tr);
      }
      const btn = (text: string, page: number, disabled: boolean): HTMLButtonElement => {
        const b = el("button", { type: "button" }, text);
        b.disabled = disabled;
        b.addEventListener("click", () => {
          st.page = page;
          render();
        });
        return b;
      };
      pager.replaceChildren(
        btn("« first", 0, st.page === 0),
        btn("‹ previous", st.page - 1, st.page === 0),
        el("span", {}, ` page ${st.page + 1} of ${pages} · ${list.length.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} segments `),
        btn("next ›", st.page + 1, st.page >= pages - 1),
        btn("last »", pages - 1, st.page >= pages - 1),
      );
      if (!list.length) tbody.append(el("tr", {}, el("td", { colspan: String(cols.length), class: "na" }, "No segment matches.")));
    };
    const reset = (): void => {
      st.page = 0;
      render();
    };
    sysSel.addEventListener("change", () => {
      st.sys = Number(sysSel.value);
      reset();
      showDetail(st.selected);
    });
    filterSel.addEventListener("change", () => ((st.filter = filterSel.value), reset()));
    sortSel.addEventListener("change", () => ((st.sort = sortSel.value), reset()));
    search.addEventListener("input", () => ((st.q = search.value), reset()));
    queueMicrotask(() => {
      const first = rows()[0];
      showDetail(first ?? -1);
      render();
    });
    return root;
  }

  function block(b: Block): HTMLElement {
    switch (b.type) {
      case "h3":
        return el("h3", b.anchor ? { id: b.anchor } : {}, b.text);
      case "p":
        return el("p", {}, b.text);
      case "kv":
        return kvBlock(b.items);
      case "chart":
        return chartBlock(b.chart);
      case "table":
        return tableBlock(b);
      case "segments":
        return segmentsBlock(b.view);
    }
  }

  const main = document.getElementById("report")!;
  try {
    const nav = el("nav", {}, ...data.sections.map((s) => el("a", { href: `#${s.id}` }, s.title)));
    main.append(el("header", {}, el("h1", {}, data.title), el("p", { class: "meta" }, `proneval ${data.version} · generated ${data.generated}`), nav));
    const inputs = el("section", { id: "inputs" }, el("h2", {}, "Inputs"));
    inputs.append(tableBlock({ type: "table", columns: ["file", "read as"], rows: data.inputs.map((x) => [x.file, x.what]) }));
    for (const w of data.warnings) inputs.append(el("p", { class: "warning" }, `⚠ ${w}`));
    main.append(inputs);
    for (const s of data.sections) {
      const sec = el("section", { id: s.id }, el("h2", {}, s.title), el("p", { class: "intro" }, s.intro));
      for (const b of s.blocks) sec.append(block(b));
      main.append(sec);
    }
    queueMicrotask(() => {
      (window as unknown as { reportReady: boolean }).reportReady = true;
    });
  } catch (e) {
    main.append(el("p", { class: "warning" }, `The report could not be drawn: ${(e as Error).message}`));
    throw e;
  }
}
