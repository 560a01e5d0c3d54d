import Foundation

/// Draws timeline lanes as an inline SVG over a window of time.
///
/// Each lane is a row of bars and ticks under a stack of label rows; a label sits inside its bar when it
/// fits, else in the lowest free row above with a leader line down to where the mark starts. Cut bars end
/// in a red zigzag with a label below naming what cut them. Labels that find no free row are left off
/// (their mark keeps its tooltip) and reported, so the page can add a close-up of the crowded stretch.
struct TimelineDrawing {
    /// The picture's width in SVG units; the page scales it to fit.
    static let width = 1320.0
    /// The left gutter holding lane names.
    static let gutter = 92.0
    /// Space right of the plot.
    static let rightMargin = 18.0
    /// Height of a label row.
    static let rowHeight = 15.0
    /// Height of the row holding bars and ticks.
    static let barHeight = 20.0
    /// Width of one character of label text (11px DejaVu Sans Mono is 6.62 units wide per character).
    static let characterWidth = 6.7

    /// The lanes to draw.
    var lanes: [TimelineLane]
    /// The time shown, in seconds.
    var window: ClosedRange<Double>
    /// A prefix that makes the SVG's element ids unique on the page.
    var id: String
    /// The picture's title (for `<title>` and the accessible name).
    var title: String
    /// The picture's description (for `<desc>`).
    var description: String
    /// The player that clicking a mark seeks, and where this run's time zero falls in its audio.
    var audio: (id: String, offset: Double)?
    /// A stretch to outline (the close-up drawn below), in seconds.
    var highlight: ClosedRange<Double>?
    /// At most this many rows of labels above a lane's marks.
    var maxLabelRows = 4
    /// At most this many rows of cut labels below a lane's marks.
    var maxCutRows = 2

    private var plotLeft: Double { Self.gutter }
    private var plotRight: Double { Self.width - Self.rightMargin }

    /// The x position of an instant in seconds.
    func x(_ seconds: Double) -> Double {
        let span = max(window.upperBound - window.lowerBound, 0.001)
        return plotLeft + (seconds - window.lowerBound) / span * (plotRight - plotLeft)
    }

    /// The SVG markup, and the time spans of marks whose labels found no room.
    func render() -> (svg: Markup, crowded: [ClosedRange<Double>]) {
        var body = Markup.none
        var crowded: [ClosedRange<Double>] = []
        var y = 8.0
        var laneTops: [Double] = []
        for (index, lane) in lanes.enumerated() {
            let drawn = draw(lane, top: y, shaded: index % 2 == 0)
            laneTops.append(y)
            body += drawn.markup
            crowded += drawn.crowded
            y += drawn.height
        }
        let plotBottom = y
        let height = plotBottom + 34
        var grid = Markup.none
        for tick in Self.ticks(for: window) {
            let tx = Self.format(x(tick))
            grid += .empty(
                "line",
                [("class", "grid"), ("x1", tx), ("y1", "8"), ("x2", tx), ("y2", Self.format(plotBottom + 4))])
            grid += .element(
                "text",
                [("class", "axis"), ("x", tx), ("y", Self.format(plotBottom + 18)), ("text-anchor", "middle")],
                [.text(Self.secondsLabel(tick))])
        }
        grid += .element(
            "text", [("class", "axis"), ("x", "8"), ("y", Self.format(plotBottom + 18))], [.text("time")])
        var outline = Markup.none
        if let highlight {
            let left = x(max(highlight.lowerBound, window.lowerBound))
            let right = x(min(highlight.upperBound, window.upperBound))
            outline =
                .empty(
                    "rect",
                    [
                        ("class", "closeup"), ("x", Self.format(left)), ("y", "4"),
                        ("width", Self.format(right - left)), ("height", Self.format(plotBottom)),
                    ])
                + .element(
                    "text",
                    [
                        ("class", "closeup-label"), ("x", Self.format(right - 4)),
                        ("y", Self.format(plotBottom + 30)), ("text-anchor", "end"),
                    ], [.text("close-up below")])
        }
        let titleID = id + "-title"
        let descID = id + "-desc"
        let svg = Markup.element(
            "svg",
            [
                ("class", "timeline"), ("xmlns", "http://www.w3.org/2000/svg"), ("role", "img"),
                ("viewBox", "0 0 \(Self.format(Self.width)) \(Self.format(height))"),
                ("width", Self.format(Self.width)), ("height", Self.format(height)),
                ("aria-labelledby", "\(titleID) \(descID)"), ("aria-label", title),
            ],
            [
                .newline, .element("title", [("id", titleID)], [.text(title)]), .newline,
                .element("desc", [("id", descID)], [.text(description)]), .newline,
                shading(laneTops: laneTops, bottom: plotBottom), grid, .newline, outline, body,
            ])
        return (svg, crowded)
    }

    /// Alternate lane backgrounds and names, drawn under everything else.
    private func shading(laneTops: [Double], bottom: Double) -> Markup {
        var markup = Markup.none
        for (index, top) in laneTops.enumerated() {
            let next = index + 1 < laneTops.count ? laneTops[index + 1] : bottom
            if index % 2 == 0 {
                markup += .empty(
                    "rect",
                    [
                        ("class", "lane"), ("x", "0"), ("y", Self.format(top)), ("width", Self.format(Self.width)),
                        ("height", Self.format(next - top)),
                    ])
            }
        }
        return markup
    }

    /// A mark with where its label, cut label or dot went.
    private struct Placed {
        var mark: TimelineMark
        var text: String
        var x1: Double
        var x2: Double
        var label = Placement.none
        var cut = Placement.none
        var dotRow = 0
    }

    /// One lane: its name, marks, labels; its height and the marks whose labels did not fit.
    ///
    /// Top to bottom: label rows, the row of bars and ticks (what was heard or done), the rows of dropped
    /// utterances' dots with their labels, the rows of cut labels.
    private func draw(_ lane: TimelineLane, top: Double, shaded: Bool)
        -> (markup: Markup, height: Double, crowded: [ClosedRange<Double>])
    {
        let visible = lane.marks.filter { $0.end >= window.lowerBound && $0.start <= window.upperBound }
        var labelRows = RowPacker(rows: maxLabelRows)
        var dotRows = RowPacker(rows: 2)
        var cutRows = RowPacker(rows: maxCutRows)
        var placements: [Placed] = []
        var crowded: [ClosedRange<Double>] = []
        for mark in visible {
            let x1 = x(max(mark.start, window.lowerBound))
            var placed = Placed(
                mark: mark, text: mark.start < window.lowerBound ? "…" + mark.label : mark.label, x1: x1,
                x2: max(x(min(mark.end, window.upperBound)), x1 + 2))
            let labelWidth = Self.textWidth(placed.text)
            if mark.shape == .dot {
                let start = min(max(x1 - 6, plotLeft), plotRight - labelWidth - 14)
                if let row = dotRows.place(from: start, width: labelWidth + 14) {
                    placed.dotRow = row
                    placed.label = .row(row, x1 + 8)
                } else {
                    crowded.append(mark.start...mark.end)
                }
            } else if case .bar = mark.shape, placed.x2 - x1 >= labelWidth + 8 {
                placed.label = .inside
            } else {
                let start = min(max(x1 - 2, plotLeft), plotRight - labelWidth)
                if let row = labelRows.place(from: start, width: labelWidth) {
                    placed.label = .row(row, start)
                } else {
                    crowded.append(mark.start...mark.end)
                }
            }
            if let text = mark.cut, mark.end <= window.upperBound {
                let width = Self.textWidth(text)
                let start = min(max(placed.x2 - 5, plotLeft), plotRight - width)
                if let row = cutRows.place(from: start, width: width) {
                    placed.cut = .row(row, start)
                } else {
                    crowded.append(mark.start...mark.end)
                }
            }
            placements.append(placed)
        }
        let barTop = top + 6 + Double(max(labelRows.used, 1)) * Self.rowHeight
        let barBottom = barTop + Self.barHeight
        let dotsBottom = barBottom + Double(dotRows.used) * Self.rowHeight
        let height = dotsBottom - top + Double(cutRows.used) * Self.rowHeight + 8
        var shapes = Markup.none
        var texts = Markup.none
        for placed in placements {
            let mark = placed.mark
            var attributes: [(String, String?)] = [("class", "m \(mark.style)")]
            if let audio {
                attributes += [("data-audio", audio.id), ("data-t", Self.format(audio.offset + mark.start, digits: 3))]
            }
            var group: [Markup] = [.element("title", [], [.text(mark.tooltip)])]
            if mark.shape == .dot {
                let centre = barBottom + 8 + Double(placed.dotRow) * Self.rowHeight
                group.append(
                    .empty(
                        "circle",
                        [("class", "dot"), ("cx", Self.format(placed.x1)), ("cy", Self.format(centre)), ("r", "4.5")]))
                if case .row(_, let start) = placed.label {
                    texts += .element(
                        "text", [("class", "dropped"), ("x", Self.format(start)), ("y", Self.format(centre + 4))],
                        [.text(placed.text)])
                }
                shapes += .element("g", attributes, group)
                continue
            }
            group.append(shape(mark, x1: placed.x1, x2: placed.x2, top: barTop))
            switch placed.label {
            case .inside:
                let hollow = mark.shape == .bar(end: mark.end, hollow: true)
                group.append(
                    .element(
                        "text",
                        [
                            ("class", hollow ? "in-hollow" : "in"), ("x", Self.format(placed.x1 + 4)),
                            ("y", Self.format(barTop + 14)),
                        ], [.text(placed.text)]))
            case .row(let row, let start):
                let baseline = barTop - 4 - Double(row) * Self.rowHeight
                shapes += .empty(
                    "line",
                    [
                        ("class", "leader"), ("x1", Self.format(placed.x1)), ("y1", Self.format(baseline + 2)),
                        ("x2", Self.format(placed.x1)), ("y2", Self.format(barTop)),
                    ])
                texts += .element(
                    "text", [("class", "out"), ("x", Self.format(start + 2)), ("y", Self.format(baseline))],
                    [.text(placed.text)])
            case .none:
                break
            }
            if case .row(let row, let start) = placed.cut {
                let baseline = dotsBottom + 12 + Double(row) * Self.rowHeight
                texts += .element(
                    "text", [("class", "cut-label"), ("x", Self.format(start)), ("y", Self.format(baseline))],
                    [.text(mark.cut ?? "")])
            }
            shapes += .element("g", attributes, group)
        }
        let name = Markup.element(
            "text", [("class", "lane-name"), ("x", "8"), ("y", Self.format(barTop + 14))], [.text(lane.name)])
        var empty = Markup.none
        if visible.isEmpty {
            empty = .element(
                "text", [("class", "none"), ("x", Self.format(plotLeft + 6)), ("y", Self.format(barTop + 14))],
                [.text("no \(lane.summary)")])
        }
        let markup =
            Markup.element(
                "g", [("class", "lane-\(lane.name.lowercased().replacingOccurrences(of: " ", with: "-"))")],
                [name, empty, shapes, texts]) + .newline
        return (markup, height, crowded)
    }

    /// A mark's shape in the bar row: a bar (with a zigzag cut mark when cut) or a tick.
    private func shape(_ mark: TimelineMark, x1: Double, x2: Double, top: Double) -> Markup {
        switch mark.shape {
        case .bar(_, let hollow):
            var markup = Markup.empty(
                "rect",
                [
                    ("class", hollow ? "bar hollow" : "bar"), ("x", Self.format(x1)), ("y", Self.format(top)),
                    ("width", Self.format(x2 - x1)), ("height", Self.format(Self.barHeight)),
                ])
            if mark.cut != nil, mark.end <= window.upperBound {
                var points: [String] = []
                for step in 0...5 {
                    let px = x2 + (step % 2 == 0 ? -2.5 : 2.5)
                    points.append(
                        "\(Self.format(px)),\(Self.format(top - 3 + Double(step) * (Self.barHeight + 6) / 5))")
                }
                markup += .empty("polyline", [("class", "cut"), ("points", points.joined(separator: " "))])
            }
            return markup
        case .tick:
            return .empty(
                "rect",
                [
                    ("class", "tick"), ("x", Self.format(x1 - 1)), ("y", Self.format(top)), ("width", "2.5"),
                    ("height", Self.format(Self.barHeight)),
                ])
        case .dot:
            return .none  // drawn by `draw`, in the rows under the bars
        }
    }

    /// Where a label went.
    enum Placement {
        case none
        case inside
        case row(Int, Double)
    }

    /// Greedy packing of labels into rows: each goes in the lowest row whose last label ends before it starts.
    struct RowPacker {
        private var ends: [Double]
        /// Rows holding at least one label.
        private(set) var used = 0

        init(rows: Int) { ends = Array(repeating: -Double.infinity, count: rows) }

        /// The row for a label spanning `start ..< start + width`, or nil when every row is taken there.
        mutating func place(from start: Double, width: Double) -> Int? {
            guard let row = ends.firstIndex(where: { $0 + 6 <= start }) else { return nil }
            ends[row] = start + width
            used = max(used, row + 1)
            return row
        }
    }

    /// The estimated drawn width of label text (wide characters count twice).
    static func textWidth(_ text: String) -> Double {
        let columns = text.unicodeScalars.reduce(0) { sum, scalar in
            sum + (scalar.value >= 0x1100 && !(0x2000...0x27BF).contains(scalar.value) ? 2 : 1)
        }
        return Double(columns) * characterWidth + 4
    }

    /// Axis ticks: a round step giving at most about 14 ticks over the window.
    static func ticks(for window: ClosedRange<Double>) -> [Double] {
        let span = window.upperBound - window.lowerBound
        let steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]
        let step = steps.first { span / $0 <= 14 } ?? 3600
        var tick = (window.lowerBound / step).rounded(.up) * step
        var ticks: [Double] = []
        while tick <= window.upperBound + step / 1000 {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }

    /// `2s`, `2.5s`, `0.25s`.
    static func secondsLabel(_ seconds: Double) -> String {
        var text = String(format: "%.2f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "s"
    }

    /// A coordinate with at most `digits` decimals and no trailing zeros.
    static func format(_ value: Double, digits: Int = 1) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
