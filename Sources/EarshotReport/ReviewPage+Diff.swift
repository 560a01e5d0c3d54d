import EarshotCore

extension ReviewPage {
    /// The diff of each before→after pair on the page (consecutive runs of one scenario), with the indexes of
    /// its two runs.
    static func diffs(_ runs: [Run]) -> [(before: Int, after: Int, diff: RunDiff)] {
        scenarioGroups(runs).compactMap { group in
            guard group.count == 2 else { return nil }
            let diff = RunDiff(before: runs[group[0]].report.run.timeline, after: runs[group[1]].report.run.timeline)
            return (group[0], group[1], diff)
        }
    }

    /// The first section of a comparison: per scenario, every utterance of the before beside the after's,
    /// changed rows marked (lost, cut, added, moved, heard now) with their times and what was heard.
    static func differenceSection(_ runs: [Run], pairs: [(before: Int, after: Int, diff: RunDiff)]) -> Markup {
        guard !pairs.isEmpty else { return .none }
        var children: [Markup] = [
            .newline, .element("h2", [("id", "difference-heading")], [.text("What changed, before → after")]),
            .newline,
        ]
        for (number, pair) in pairs.enumerated() {
            let before = runs[pair.before]
            let after = runs[pair.after]
            if pairs.count > 1 {
                children += [.element("h3", [], [.text(before.report.run.document.header.title)]), .newline]
            }
            let counts = pair.diff.counts.filter { $0.change != .same }
            let summary =
                counts.isEmpty
                ? "Every utterance is heard the same way at the same time."
                : counts.map { "\($0.count) \($0.change.name)" }.joined(separator: ", ")
                    + " of \(pair.diff.rows.count) utterance\(pair.diff.rows.count == 1 ? "" : "s")."
            children += [.element("p", [("class", "diff-summary")], [.text(summary)]), .newline]
            let head = Markup.element(
                "thead", [],
                [
                    .element(
                        "tr", [],
                        [
                            .element("th", [("scope", "col")], [.text("Change")]),
                            .element("th", [("scope", "col")], [.text("Kind")]),
                            .element("th", [("scope", "col")], [.text(before.label)]),
                            .element("th", [("scope", "col")], [.text(after.label)]),
                        ])
                ])
            var body: [Markup] = [.newline]
            for rows in collapsedRuns(pair.diff.rows) {
                guard let row = rows.first else { continue }
                let kind = (row.after ?? row.before).map { kindName($0.kind) } ?? ""
                let cells: [Markup]
                if rows.count == 1 {
                    cells = [diffCell(row.before, side: "before"), diffCell(row.after, side: "after")]
                } else {
                    cells = [
                        diffCell(rows.compactMap(\.before), side: "before"),
                        diffCell(rows.compactMap(\.after), side: "after"),
                    ]
                }
                let change = row.change.name + (rows.count > 1 ? " ×\(rows.count)" : "")
                body += [
                    .element(
                        "tr",
                        [
                            ("class", "diff-row change-\(row.change.rawValue)"), ("data-change", row.change.rawValue),
                            ("data-rows", "\(rows.count)"),
                        ],
                        [
                            .element("td", [("class", "change")], [.text(change)]),
                            .element("td", [("class", "kind")], [.text(kind)]),
                        ] + cells),
                    .newline,
                ]
            }
            children += [
                .element(
                    "table", [("class", "diff"), ("id", "diff\(number + 1)")],
                    [.newline, head, .newline, .element("tbody", [], body), .newline]),
                .newline,
            ]
        }
        return .element("section", [("id", "difference"), ("aria-labelledby", "difference-heading")], children)
            + .newline
    }

    /// One side of a diff row: the time, what was heard (cut text ends in a dash, lost text is struck through),
    /// and its fate in words.
    static func diffCell(_ side: RunDiff.Side?, side name: String) -> Markup {
        guard let side else { return .element("td", [("class", "\(name) absent")], [.text("—")]) }
        let time = Instant.seconds(side.at).description
        let spoken: Markup
        switch side.hearing {
        case .full: spoken = .element("span", [("class", "heard")], [.text(side.text)])
        case .cut:
            spoken =
                .element("span", [("class", "heard")], [.text(side.heard + "—")]) + .text(" ")
                + .element("s", [], [.text(side.text)])
        case .lost: spoken = .element("s", [("class", "lost")], [.text(side.text)])
        }
        return .element(
            "td", [("class", "\(name) hearing-\(side.hearing)")],
            [
                .element("span", [("class", "time")], [.text(time)]), .text(" "), spoken, .empty("br"),
                .element("span", [("class", "fate")], [.text(side.fate)]),
            ])
    }

    /// The rows in order, with every run of at least `minimum` consecutive rows of one change and kind
    /// together (a clock announcing every second is one line, not sixty).
    static func collapsedRuns(_ rows: [RunDiff.Row], minimum: Int = 4) -> [[RunDiff.Row]] {
        func key(_ row: RunDiff.Row) -> String {
            row.change.rawValue + " " + ((row.after ?? row.before)?.kind.rawValue ?? "")
        }
        var runs: [[RunDiff.Row]] = []
        for row in rows {
            if let last = runs.last?.last, key(last) == key(row) {
                runs[runs.count - 1].append(row)
            } else {
                runs.append([row])
            }
        }
        return runs.flatMap { $0.count >= minimum ? [$0] : $0.map { [$0] } }
    }

    /// One side of several collapsed rows: their time span, how many were heard how, and each one's text.
    static func diffCell(_ sides: [RunDiff.Side], side name: String) -> Markup {
        guard let first = sides.first, let last = sides.last else {
            return .element("td", [("class", "\(name) absent")], [.text("—")])
        }
        let span = "\(Instant.seconds(first.at))–\(Instant.seconds(last.at))"
        let tally = [RunDiff.Hearing.full, .cut, .lost].compactMap { hearing -> String? in
            let count = sides.filter { $0.hearing == hearing }.count
            guard count > 0 else { return nil }
            switch hearing {
            case .full: return "\(count) heard in full"
            case .cut: return "\(count) cut"
            case .lost: return "\(count) never heard"
            }
        }.joined(separator: ", ")
        let texts = sides.map { side -> Markup in
            switch side.hearing {
            case .full: return .text(side.text)
            case .cut: return .text(side.heard + "—")
            case .lost: return .element("s", [("class", "lost")], [.text(side.text)])
            }
        }.joined(separator: .text(" · "))
        return .element(
            "td", [("class", "\(name) collapsed")],
            [
                .element("span", [("class", "time")], [.text(span)]), .text(" "), texts, .empty("br"),
                .element("span", [("class", "fate")], [.text(tally)]),
            ])
    }

    /// Where a before→after pair's close-up goes: the stretch with the most differing rows, as wide as a
    /// fifth of the run (at least a second and a half), inside the overview. Nil when nothing differs.
    static func differenceWindow(_ diff: RunDiff, overview: ClosedRange<Double>)
        -> (window: ClosedRange<Double>, rows: Int)?
    {
        let span = overview.upperBound - overview.lowerBound
        let width = min(span, max(1.5, 0.2 * span))
        guard let busiest = diff.busiestWindow(width: width) else { return nil }
        var lower = max(overview.lowerBound, busiest.window.lowerBound)
        if lower + width > overview.upperBound { lower = overview.upperBound - width }
        return (lower...(lower + width), busiest.rows)
    }

    /// The difference window of a before→after group (its diff among `pairs`, made once per page), nil for
    /// other groups or when the two runs agree.
    static func differenceWindow(
        group: [Int], pairs: [(before: Int, after: Int, diff: RunDiff)], overview: ClosedRange<Double>
    ) -> (window: ClosedRange<Double>, rows: Int)? {
        guard group.count == 2, let pair = pairs.first(where: { $0.before == group[0] && $0.after == group[1] })
        else { return nil }
        return differenceWindow(pair.diff, overview: overview)
    }
}
