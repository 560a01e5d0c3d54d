import EarshotAudio
import EarshotCore
import Foundation

/// The review page: one self-contained HTML file showing and playing what a render or comparison produced.
///
/// For reviewers who can't run a screen reader. The page holds, in order:
/// 1. a header with the script's title, pattern, variant(s), profile, voice and what should sound different;
/// 2. for a comparison, what changed: each before→after pair's utterances lined up like a diff (`RunDiff`);
/// 3. the audio player(s), the WAV embedded as a `data:` URI when small, else referenced beside the page;
/// 4. a timeline picture per run in inline SVG (input, speech, sounds, focus and on-screen lanes on one time
///    scale shared by every run), plus a close-up where a before and its after differ most, else of the most
///    crowded stretch when labels did not fit;
/// 5. per run: the checks with their evidence (failing ones in red), the findings, and the transcript.
///
/// Everything is inline (CSS, SVG, a few lines of JavaScript that seek the player when a mark is clicked), so
/// the page works from a mail attachment or a repository browser. The output is deterministic: no dates.
public enum ReviewPage {
    /// One run shown on the page.
    public struct Run: Sendable {
        /// What the page calls it: `Before`, `After`, or the script's name.
        public var label: String
        /// The run, its checks and findings.
        public var report: RunReport
        /// The WAV holding this run's audio, if one was rendered.
        public var wavPath: String?
        /// Where the run's time zero falls in that WAV (a comparison puts "Before." ahead of the run).
        public var audioOffset: TimeSpan

        /// Creates a run to show.
        public init(label: String, report: RunReport, wavPath: String? = nil, audioOffset: TimeSpan = .zero) {
            self.label = label
            self.report = report
            self.wavPath = wavPath
            self.audioOffset = audioOffset
        }
    }

    /// How the page is made.
    public struct Options: Sendable {
        /// WAV files smaller than this many bytes are embedded in the page; larger ones are referenced.
        public var embedLimit: Int
        /// The folder the page will be written to, so referenced WAVs get a path relative to it.
        public var pageDirectory: String?
        /// The page's title; by default the script's title (and pattern, for a comparison).
        public var title: String?
        /// WAVs not in place yet (a render publishes its files together): a WAV's path → where its bytes are now.
        public var stagedAudio: [String: String] = [:]
        /// The fingerprint of the audio the page is made for, named in a `<meta>` (``RenderStamp``).
        public var audioFingerprint: AudioFingerprint?

        /// Creates options: embed WAVs under 8 MB.
        public init(embedLimit: Int = 8 * 1024 * 1024, pageDirectory: String? = nil, title: String? = nil) {
            self.embedLimit = embedLimit
            self.pageDirectory = pageDirectory
            self.title = title
        }
    }

    /// The page for runs given as `(label, report, wavPath)`, each run's audio starting at its WAV's start.
    public static func html(runs: [(label: String, report: RunReport, wavPath: String?)]) -> String {
        html(runs: runs.map { Run(label: $0.label, report: $0.report, wavPath: $0.wavPath) })
    }

    /// The page for `runs`, in order (before, then after, for a comparison).
    public static func html(runs: [Run], options: Options = Options()) -> String {
        let players = audioPlayers(for: runs, options: options)
        let title = options.title ?? pageTitle(runs)
        let pairs = diffs(runs)  // each before→after pair diffed once, for the table and the close-up
        var head: [Markup] = [
            .newline, .empty("meta", [("charset", "utf-8")]), .newline,
            .empty("meta", [("name", "viewport"), ("content", "width=device-width, initial-scale=1")]), .newline,
            .empty("meta", [("name", "generator"), ("content", "earshot")]), .newline,
        ]
        if let fingerprint = options.audioFingerprint { head += [RenderStamp.pageMeta(for: fingerprint), .newline] }
        head += [
            .element("title", [], [.text("\(title) — Earshot review")]), .newline,
            .element("style", [], [.newline, styleSheet]), .newline,
        ]
        let header = Markup.element(
            "header", [],
            [
                .newline, .element("p", [("class", "kicker")], [.text("Earshot review")]), .newline,
                .element("h1", [], [.text(title)]), .newline, headerDetails(runs), verdictSummary(runs),
            ])
        let main = Markup.element(
            "main", [],
            [
                .newline, header, .newline, differenceSection(runs, pairs: pairs), listenSection(players),
                timelineSection(runs, players: players, pairs: pairs),
                .element("div", [("class", "runs")], [.newline] + runs.enumerated().map { runSection($1, index: $0) }),
                .newline,
            ])
        let footer = Markup.element(
            "footer", [],
            [
                .element(
                    "p", [],
                    [
                        .text("Made by "), .element("code", [], [.text("earshot")]),
                        .text(
                            ". The timeline and transcript come from the same simulation as the audio: real espeak-ng "
                                + "durations, cut to the sample."),
                    ])
            ])
        var body: [Markup] = [.newline, main, .newline, footer, .newline]
        if !players.isEmpty { body += [.element("script", [], [.newline, seekScript]), .newline] }
        let page = Markup.element(
            "html", [("lang", "en")],
            [.newline, .element("head", [], head), .newline, .element("body", [], body), .newline])
        return (Markup.trusted("<!DOCTYPE html>\n") + page + .newline).rendered
    }

    /// Writes the page for `runs` to `path` atomically; referenced WAVs are relative to the page's folder.
    ///
    /// - Throws: `OutputFileError` when the page cannot be written.
    public static func write(runs: [Run], to path: String, options: Options = Options()) throws {
        var options = options
        if options.pageDirectory == nil {
            options.pageDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        try AtomicFile.write(html(runs: runs, options: options), to: path)
    }

    /// The title: the script's, or for several runs the pattern's with the one title they share (or how many).
    static func pageTitle(_ runs: [Run]) -> String {
        let headers = runs.map(\.report.run.document.header)
        guard let first = headers.first else { return "Earshot review" }
        let titles = headers.map(\.title).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard headers.count > 1 else { return first.title }
        return "\(first.pattern ?? first.title): "
            + (titles.count == 1 ? first.title : "\(titles.count) scenarios, before and after")
    }

    // MARK: - Audio

    /// One `<audio>` element: the runs it plays and its source.
    struct Player {
        var id: String
        var path: String
        var runs: [Int]
        var source: String
        var embedded: Bool
        var bytes: Int?
    }

    /// One player per distinct WAV, in the order runs name them.
    static func audioPlayers(for runs: [Run], options: Options) -> [Player] {
        var players: [Player] = []
        for (index, run) in runs.enumerated() {
            guard let path = run.wavPath else { continue }
            if let existing = players.firstIndex(where: { $0.path == path }) {
                players[existing].runs.append(index)
                continue
            }
            let contents = options.stagedAudio[path] ?? path
            // stat(2), not FileManager's attributes: those look up the owner's and group's names too, reading the
            // user and group databases for every page.
            var status = stat()
            let bytes = stat(contents, &status) == 0 ? Int(status.st_size) : nil
            var source = relativeReference(to: path, from: options.pageDirectory)
            var embedded = false
            if let bytes, bytes < options.embedLimit, let data = FileManager.default.contents(atPath: contents) {
                source = "data:audio/wav;base64," + data.base64EncodedString()
                embedded = true
            }
            players.append(
                Player(
                    id: "audio-\(players.count + 1)", path: path, runs: [index], source: source,
                    embedded: embedded, bytes: bytes))
        }
        return players
    }

    /// A URL path for `file` relative to `directory` (percent-encoded), or the file's own path without one.
    static func relativeReference(to file: String, from directory: String?) -> String {
        var components: [String]
        if let directory {
            let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
            let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
            var common = 0
            while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
            components = Array(repeating: "..", count: base.count - common) + target[common...]
        } else {
            components = file.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: ";?#"))
        return components.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
            .joined(separator: "/")
    }

    static func listenSection(_ players: [Player]) -> Markup {
        var children: [Markup] = [
            .newline, .element("h2", [("id", "listen-heading")], [.text("Listen")]), .newline,
        ]
        if players.isEmpty {
            children += [.element("p", [("class", "note")], [.text("No audio was rendered for this page.")]), .newline]
        }
        for player in players {
            let name = URL(fileURLWithPath: player.path).lastPathComponent
            let size = player.bytes.map { String(format: "%.1f kB", Double($0) / 1000) } ?? "not found"
            let where_ = player.embedded ? "embedded in this page" : "beside this page"
            let caption = Markup.element(
                "figcaption", [("id", "\(player.id)-label")],
                [.element("strong", [], [.text(name)]), .text(" (\(size), \(where_))")])
            let audio = Markup.element(
                "audio",
                [
                    ("id", player.id), ("controls", "controls"), ("preload", "metadata"),
                    ("aria-labelledby", "\(player.id)-label"), ("src", player.source),
                ])
            children += [
                .element("figure", [("class", "player")], [.newline, caption, .newline, audio, .newline]), .newline,
            ]
        }
        if !players.isEmpty {
            children += [
                .element("p", [("class", "note")], [.text("Click a mark on a timeline to hear it from there.")]),
                .newline,
            ]
        }
        return .element("section", [("id", "listen"), ("aria-labelledby", "listen-heading")], children) + .newline
    }

    /// Seeks the player a mark names to the mark's time and plays it.
    static let seekScript = Markup.trusted(
        """
        document.querySelectorAll('[data-audio]').forEach(function (mark) {
          mark.addEventListener('click', function () {
            var player = document.getElementById(mark.getAttribute('data-audio'));
            if (!player) { return; }
            player.currentTime = parseFloat(mark.getAttribute('data-t'));
            player.play();
          });
        });

        """)

    // MARK: - Timeline

    /// The timeline pictures: runs of one scenario (a before and its after) share a time scale and a close-up.
    static func timelineSection(
        _ runs: [Run], players: [Player], pairs: [(before: Int, after: Int, diff: RunDiff)]
    ) -> Markup {
        var children: [Markup] = [
            .newline, .element("h2", [("id", "timeline-heading")], [.text("Timeline")]), .newline, legend(runs),
        ]
        let groups = scenarioGroups(runs)
        for group in groups {
            if groups.count > 1, let first = group.first {
                children += [.element("h3", [], [.text(runs[first].report.run.document.header.title)]), .newline]
            }
            children.append(
                timelineGroup(
                    group, runs: runs, players: players, pairs: pairs, headingLevel: groups.count > 1 ? 4 : 3))
        }
        return .element("section", [("id", "timeline"), ("aria-labelledby", "timeline-heading")], children)
            + .newline
    }

    /// Consecutive runs of the same scenario (same title and pattern), by index.
    static func scenarioGroups(_ runs: [Run]) -> [[Int]] {
        var groups: [[Int]] = []
        for (index, run) in runs.enumerated() {
            let header = run.report.run.document.header
            if let last = groups.last?.last, runs[last].report.run.document.header.title == header.title,
                runs[last].report.run.document.header.pattern == header.pattern
            {
                groups[groups.count - 1].append(index)
            } else {
                groups.append([index])
            }
        }
        return groups
    }

    /// One scenario's pictures on one time scale, then a close-up of its crowded stretch when labels did not fit.
    static func timelineGroup(
        _ group: [Int], runs: [Run], players: [Player], pairs: [(before: Int, after: Int, diff: RunDiff)],
        headingLevel: Int
    ) -> Markup {
        let end = group.map { timelineEnd(runs[$0].report.run.timeline) }.max() ?? 1
        let overview = 0...max(end, 0.5)
        var crowded: [ClosedRange<Double>] = []
        for index in group {
            crowded +=
                drawing(runs[index], index: index, window: overview, players: players, kind: "overview")
                .render().crowded
        }
        let difference = differenceWindow(group: group, pairs: pairs, overview: overview)
        let closeUp = difference?.window ?? closeUpWindow(crowded, overview: overview)
        var html = Markup.none
        for index in group {
            var drawing = drawing(runs[index], index: index, window: overview, players: players, kind: "overview")
            drawing.highlight = closeUp
            html += figure(runs[index], svg: drawing.render().svg)
        }
        guard let closeUp else { return html }
        let range = "\(Instant.seconds(closeUp.lowerBound))–\(Instant.seconds(closeUp.upperBound))"
        let why =
            difference.map { "Where the runs differ most (\($0.rows) changed utterance\($0.rows == 1 ? "" : "s"))" }
            ?? "The busiest stretch"
        html +=
            .element("h\(headingLevel)", [], [.text("Close-up, \(range)")]) + .newline
            + .element(
                "p", [("class", "note")],
                [.text("\(why), magnified\(group.count > 1 ? ", every run on the same scale" : "").")]) + .newline
        for index in group {
            var drawing = drawing(runs[index], index: index, window: closeUp, players: players, kind: "closeup")
            drawing.maxLabelRows = 6
            drawing.maxCutRows = 4
            html += figure(runs[index], svg: drawing.render().svg)
        }
        return html
    }

    static func figure(_ run: Run, svg: Markup) -> Markup {
        .element(
            "figure", [("class", "picture")],
            [
                .newline,
                .element("figcaption", [], [.text("\(run.label): \(run.report.run.document.header.title)")]),
                .newline, .element("div", [("class", "scroll")], [.newline, svg, .newline]), .newline,
            ]) + .newline
    }

    /// The drawing of one run over a window.
    static func drawing(_ run: Run, index: Int, window: ClosedRange<Double>, players: [Player], kind: String)
        -> TimelineDrawing
    {
        let timeline = run.report.run.timeline
        let player = players.first { $0.runs.contains(index) }
        let range = "\(Instant.seconds(window.lowerBound))–\(Instant.seconds(window.upperBound))"
        let title = "\(run.label) timeline, \(range)" + (kind == "closeup" ? " (close-up)" : "")
        return TimelineDrawing(
            lanes: lanes(of: timeline), window: window, id: "run\(index + 1)-\(kind)", title: title,
            description: pictureDescription(timeline),
            audio: player.map { ($0.id, run.audioOffset.seconds) })
    }

    /// What the picture shows, in words, for `<desc>`.
    static func pictureDescription(_ timeline: Timeline) -> String {
        let spoken = timeline.utterances.filter(\.wasSpoken).count
        let cut = timeline.utterances.filter(\.wasInterrupted).count
        let lost = timeline.utterances.filter(\.wasCutBeforeHeard).count
        let dropped = timeline.utterances.filter {
            if case .dropped = $0.outcome { return true }
            return false
        }.count
        let inputs = timeline.events.filter {
            if case .user = $0.kind { return true }
            return false
        }.count
        return "Lanes for input, speech, sounds, focus and on-screen text over \(timeline.end). "
            + "\(inputs) user input\(inputs == 1 ? "" : "s"); \(spoken) utterance\(spoken == 1 ? "" : "s") spoken "
            + "in full, \(cut) cut off (\(lost) before a word was heard), \(dropped) dropped. "
            + "The transcript below lists every one in words."
    }

    /// The last instant anything on the timeline reaches, in seconds.
    static func timelineEnd(_ timeline: Timeline) -> Double {
        let marks = lanes(of: timeline).flatMap(\.marks).map(\.end)
        return ([timeline.end.seconds] + marks).max() ?? 0
    }

    /// The stretch to magnify: around the marks whose labels did not fit; when they spread over most of the
    /// run, the first fifth of the run from the first of them.
    static func closeUpWindow(_ crowded: [ClosedRange<Double>], overview: ClosedRange<Double>)
        -> ClosedRange<Double>?
    {
        guard let low = crowded.map(\.lowerBound).min(), let high = crowded.map(\.upperBound).max() else {
            return nil
        }
        let span = overview.upperBound - overview.lowerBound
        var lower = low - max(0.25, (high - low) * 0.1)
        var upper = high + max(0.25, (high - low) * 0.1)
        if upper - lower > 0.6 * span {
            lower = low - 0.25
            upper = lower + max(1, 0.2 * span)
        } else if upper - lower < 1 {
            let middle = (lower + upper) / 2
            lower = middle - 0.5
            upper = middle + 0.5
        }
        lower = max(lower, overview.lowerBound)
        upper = min(upper, overview.upperBound)
        return upper > lower ? lower...upper : nil
    }
}
