extension ReviewPage {
    /// The page's inline style sheet.
    ///
    /// Every colour pair meets WCAG AA: white on each bar colour is at least 5.9:1, body text 15:1, the red
    /// of failures on its tint 7:1. Kinds are told apart by label text as well as colour.
    static let styleSheet = Markup.trusted(
        """
        :root { color-scheme: light; --ink: #1b1b1b; --muted: #4a4a4a; --line: #c9c9c9; --fail: #a0161b;
          --fail-bg: #fdecec; --pass: #1d6b2f; --pass-bg: #eaf5ec; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink);
          background: #ffffff; }
        main, footer { max-width: 1380px; margin: 0 auto; padding: 0 20px; }
        header { padding: 16px 0 4px; border-bottom: 1px solid var(--line); }
        .kicker { margin: 0; font-size: 13px; text-transform: uppercase; letter-spacing: .08em; color: var(--muted); }
        h1 { margin: 2px 0 10px; font-size: 26px; line-height: 1.2; }
        h2 { font-size: 20px; margin: 22px 0 8px; }
        h3 { font-size: 16px; margin: 16px 0 6px; }
        code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace, "Noto Color Emoji", "Apple Color Emoji",
          "Segoe UI Emoji"; font-size: 13px; }
        .facts { display: flex; flex-wrap: wrap; gap: 4px 26px; margin: 0 0 8px; }
        .facts div { display: flex; gap: 6px; }
        .facts dt { font-weight: bold; color: var(--muted); }
        .facts dt::after { content: ":"; }
        .facts dd { margin: 0; }
        .different { background: #f3f6fb; border-left: 4px solid #1f5fa8; padding: 6px 12px; margin: 8px 0; }
        .different h2 { font-size: 15px; margin: 0 0 2px; }
        .different p { margin: 0; }
        .verdicts { list-style: none; padding: 0; margin: 8px 0 12px; display: flex; flex-wrap: wrap; gap: 8px; }
        .verdicts li { padding: 3px 10px; border-radius: 4px; }
        .pass { color: var(--pass); }
        .fail { color: var(--fail); }
        .verdicts li.pass { background: var(--pass-bg); }
        .verdicts li.fail { background: var(--fail-bg); }
        .note { color: var(--muted); margin: 4px 0; }
        .player { margin: 6px 0; }
        .player figcaption { margin-bottom: 4px; }
        audio { width: min(640px, 100%); }
        .picture { margin: 10px 0 14px; }
        .picture figcaption { font-weight: bold; margin-bottom: 2px; }
        .scroll { overflow-x: auto; }
        svg.timeline { display: block; width: 100%; min-width: 1000px; max-width: 1320px; height: auto; background: #ffffff;
          border: 1px solid var(--line); }
        svg.timeline text { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 11px;
          fill: var(--ink); }
        svg.timeline text.out, svg.timeline text.cut-label, svg.timeline text.none, svg.timeline text.dropped {
          paint-order: stroke;
          stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
        svg.timeline text.in { fill: #ffffff; }
        svg.timeline text.in-hollow { fill: var(--ink); }
        svg.timeline text.lane-name { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 13px;
          font-weight: bold; }
        svg.timeline text.axis { fill: var(--muted); }
        svg.timeline text.none { fill: #6a6a6a; font-style: italic; }
        svg.timeline text.cut-label { fill: var(--fail); }
        svg.timeline text.dropped { fill: var(--muted); }
        svg.timeline text.closeup-label { fill: #1f5fa8; }
        svg.timeline rect.lane { fill: #f4f5f7; }
        svg.timeline line.grid { stroke: #dedede; stroke-width: 1; }
        svg.timeline line.leader { stroke: #8c8c8c; stroke-width: 1; }
        svg.timeline rect.closeup { fill: none; stroke: #1f5fa8; stroke-width: 1.5; stroke-dasharray: 6 4; }
        svg.timeline .bar { fill: var(--c); }
        svg.timeline .bar.hollow { fill: #ffffff; stroke: var(--c); stroke-width: 1.5; stroke-dasharray: 4 3; }
        svg.timeline .tick { fill: var(--c); }
        svg.timeline .dot { fill: #ffffff; stroke: var(--c); stroke-width: 2; }
        svg.timeline polyline.cut { fill: none; stroke: var(--fail); stroke-width: 2.5; stroke-linejoin: miter; }
        svg.timeline g.m[data-audio] { cursor: pointer; }
        svg.timeline g.m:hover .bar { opacity: .8; }
        .k-focusRead { --c: #1f5fa8; } .k-hint { --c: #2e6b3a; } .k-announcement { --c: #9a4a00; }
        .k-screenChange { --c: #0f6466; } .k-layoutChange { --c: #11587a; } .k-pageScrolled { --c: #5d4a87; }
        .k-poll { --c: #6f5500; } .k-typingEcho { --c: #6a3aa3; } .k-valueEcho { --c: #4f4f4f; }
        .k-scan { --c: #7a2e62; } .k-input { --c: #1b1b1b; } .k-focus { --c: #1f5fa8; } .k-lost { --c: #a0161b; }
        .k-earcon { --c: #0f6466; } .k-sound { --c: #6f5500; } .k-media { --c: #34495e; } .k-caption { --c: #2e6b3a; }
        .k-text { --c: #4f4f4f; }
        .legend { list-style: none; padding: 0; margin: 4px 0 8px; display: flex; flex-wrap: wrap; gap: 4px 18px;
          font-size: 14px; }
        .legend li { display: flex; align-items: center; gap: 6px; }
        .swatch { display: inline-block; width: 22px; height: 12px; background: var(--c); border-radius: 2px; }
        .cut-swatch { background: repeating-linear-gradient(60deg, #ffffff 0 3px, var(--fail) 3px 5px);
          border: 1px solid var(--fail); }
        .dot-swatch { width: 12px; border-radius: 50%; background: #ffffff; border: 2px solid var(--ink); }
        .tick-swatch { width: 3px; background: var(--ink); }
        .hollow-swatch { background: #ffffff; border: 1.5px dashed var(--ink); }
        .runs { display: grid; grid-template-columns: repeat(auto-fit, minmax(600px, 1fr)); gap: 0 28px; }
        .run { min-width: 0; border-top: 1px solid var(--line); margin-top: 10px; }
        .checks, .assertions, .evidence { list-style: none; padding-left: 0; margin: 0; }
        .check { border: 1px solid var(--line); border-radius: 5px; padding: 6px 10px; margin: 6px 0; color: var(--ink); }
        .check.fail { background: var(--fail-bg); border-color: var(--fail); border-left-width: 5px; }
        .check.pass { background: var(--pass-bg); border-color: #8fbf99; }
        .check-name { margin: 0 0 4px; }
        .check .where { color: var(--muted); font-size: 12px; white-space: nowrap; }
        .check.fail .check-name .verdict, .assertion.fail > .verdict { color: var(--fail); font-weight: bold; }
        .check.pass .check-name .verdict, .assertion.pass > .verdict { color: var(--pass); font-weight: bold; }
        .assertions { padding-left: 14px; }
        .assertion { margin: 3px 0; }
        .evidence { padding-left: 22px; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px;
          color: var(--ink); }
        table.findings { border-collapse: collapse; width: 100%; font-size: 14px; }
        table.findings th, table.findings td { border: 1px solid var(--line); padding: 4px 6px; text-align: left;
          vertical-align: top; }
        table.findings th { background: #f0f0f0; }
        tr.finding.severe { background: var(--fail-bg); }
        tr.finding.severe td.impact { color: var(--fail); font-weight: bold; }
        tr.finding.warn { background: #fff6e0; }
        tr.finding.warn td.impact { color: #7a4a00; font-weight: bold; }
        #difference { border-bottom: 1px solid var(--line); padding-bottom: 8px; }
        .diff-summary { margin: 4px 0 6px; font-weight: bold; }
        table.diff { border-collapse: collapse; width: 100%; font-size: 14px; table-layout: fixed; }
        table.diff th:nth-child(1) { width: 9em; } table.diff th:nth-child(2) { width: 9em; }
        table.diff th, table.diff td { border: 1px solid var(--line); padding: 3px 6px; text-align: left;
          vertical-align: top; }
        table.diff th { background: #f0f0f0; }
        table.diff td.change, table.diff td.kind { white-space: nowrap; }
        table.diff td.change { font-weight: bold; }
        table.diff .time { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; color: var(--muted); }
        table.diff .fate { font-size: 12.5px; color: var(--muted); }
        table.diff s { color: var(--muted); }
        table.diff td.absent { color: var(--muted); }
        tr.change-same { color: var(--muted); }
        tr.change-lost-now, tr.change-cut-now { background: var(--fail-bg); }
        tr.change-lost-now td.change, tr.change-cut-now td.change { color: var(--fail); }
        tr.change-heard-now { background: var(--pass-bg); }
        tr.change-heard-now td.change { color: var(--pass); }
        tr.change-added, tr.change-moved, tr.change-removed { background: #f3f6fb; }
        tr.change-added td.change, tr.change-moved td.change, tr.change-removed td.change { color: #1f5fa8; }
        td.impact, td.rule, td.times { white-space: nowrap; }
        td.rule .card { font-size: 12.5px; color: var(--muted); }
        .ok { color: var(--pass); }
        pre.transcript { background: #f7f7f7; border: 1px solid var(--line); padding: 8px 10px; overflow-x: auto;
          font-size: 12.5px; line-height: 1.4; }
        footer { color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); margin-top: 20px; }
        :focus-visible { outline: 3px solid #1f5fa8; outline-offset: 2px; }

        """)
}
