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
    static func differenceSection(_ runs: [Run]) -> String {
        let pairs = diffs(runs)
        guard !pairs.isEmpty else { return "" }
        var html =
            "<section id=\"difference\" aria-labelledby=\"difference-heading\">\n"
            + "<h2 id=\"difference-heading\">What changed, before → after</h2>\n"
        for (number, pair) in pairs.enumerated() {
            let before = runs[pair.before]
            let after = runs[pair.after]
            if pairs.count > 1 {
                html += "<h3>\(escape(before.report.run.document.header.title))</h3>\n"
            }
            let counts = pair.diff.counts.filter { $0.change != .same }
            let summary =
                counts.isEmpty
                ? "Every utterance is heard the same way at the same time."
                : counts.map { "\($0.count) \($0.change.name)" }.joined(separator: ", ")
                    + " of \(pair.diff.rows.count) utterance\(pair.diff.rows.count == 1 ? "" : "s")."
            html += "<p class=\"diff-summary\">\(escape(summary))</p>\n"
            html +=
                "<table class=\"diff\" id=\"diff\(number + 1)\">\n<thead><tr><th scope=\"col\">Change</th>"
                + "<th scope=\"col\">Kind</th><th scope=\"col\">\(escape(before.label))</th>"
                + "<th scope=\"col\">\(escape(after.label))</th></tr></thead>\n<tbody>\n"
            for rows in collapsedRuns(pair.diff.rows) {
                guard let row = rows.first else { continue }
                let kind = (row.after ?? row.before).map { kindName($0.kind) } ?? ""
                let cells: String
                if rows.count == 1 {
                    cells = diffCell(row.before, side: "before") + diffCell(row.after, side: "after")
                } else {
                    cells =
                        diffCell(rows.compactMap(\.before), side: "before")
                        + diffCell(rows.compactMap(\.after), side: "after")
                }
                html +=
                    "<tr class=\"diff-row change-\(row.change.rawValue)\" data-change=\"\(row.change.rawValue)\" "
                    + "data-rows=\"\(rows.count)\"><td class=\"change\">\(row.change.name)"
                    + (rows.count > 1 ? " ×\(rows.count)" : "") + "</td><td class=\"kind\">\(escape(kind))</td>"
                    + cells + "</tr>\n"
            }
            html += "</tbody>\n</table>\n"
        }
        return html + "</section>\n"
    }

    /// One side of a diff row: the time, what was heard (cut text ends in a dash, lost text is struck through),
    /// and its fate in words.
    static func diffCell(_ side: RunDiff.Side?, side name: String) -> String {
        guard let side else { return "<td class=\"\(name) absent\">—</td>" }
        let time = Instant.seconds(side.at).description
        let spoken: String
        switch side.hearing {
        case .full: spoken = "<span class=\"heard\">\(escape(side.text))</span>"
        case .cut: spoken = "<span class=\"heard\">\(escape(side.heard))—</span> <s>\(escape(side.text))</s>"
        case .lost: spoken = "<s class=\"lost\">\(escape(side.text))</s>"
        }
        return
            "<td class=\"\(name) hearing-\(side.hearing)\"><span class=\"time\">\(time)</span> \(spoken)"
            + "<br/><span class=\"fate\">\(escape(side.fate))</span></td>"
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
    static func diffCell(_ sides: [RunDiff.Side], side name: String) -> String {
        guard let first = sides.first, let last = sides.last else { return "<td class=\"\(name) absent\">—</td>" }
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
        let texts = sides.map { side -> String in
            switch side.hearing {
            case .full: return escape(side.text)
            case .cut: return escape(side.heard) + "—"
            case .lost: return "<s class=\"lost\">\(escape(side.text))</s>"
            }
        }.joined(separator: " · ")
        return
            "<td class=\"\(name) collapsed\"><span class=\"time\">\(span)</span> \(texts)"
            + "<br/><span class=\"fate\">\(tally)</span></td>"
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

    /// The difference window of a before→after group, nil for other groups or when the two runs agree.
    static func differenceWindow(group: [Int], runs: [Run], overview: ClosedRange<Double>)
        -> (window: ClosedRange<Double>, rows: Int)?
    {
        guard group.count == 2 else { return nil }
        let diff = RunDiff(before: runs[group[0]].report.run.timeline, after: runs[group[1]].report.run.timeline)
        return differenceWindow(diff, overview: overview)
    }
}
