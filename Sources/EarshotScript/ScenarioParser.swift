import EarshotCore

/// Parses scenario scripts (`.earshot` files) into a `ScenarioDocument`.
///
/// Flow:
/// 1. `ScriptLexer` splits lines into tokens and builds the indentation tree (tabs, unterminated strings
///    and stray indentation are reported here).
/// 2. A pre-pass records data table names, so `{TABLE}` templates resolve wherever the table is.
/// 3. Each top-level line is parsed by its first word; a failing line reports one diagnostic and the
///    parser moves on, so one run reports every independent mistake.
/// 4. References (element ids, loads, media, tables, screens) are checked against the declarations;
///    an unknown name suggests the nearest known one.
/// 5. Missing header fields are reported; any diagnostic makes `parse` throw them all.
public enum ScenarioParser {
    /// The file extension scenario scripts use.
    public static let fileExtension = "earshot"

    /// Parses a script's text. `path` is used in diagnostics and recorded in every `SourceLocation`.
    public static func parse(source: String, path: String) throws(ScriptDiagnostics) -> ScenarioDocument {
        var state = ParserState(path: path)
        return try state.run(source)
    }
}

/// The header keywords, in the order the reference page lists them.
let headerKeywords = [
    "title", "pattern", "variant", "says-different", "profile", "network", "voice", "hints", "trait-words",
    "trait-hints", "typing-feedback",
    "poll", "hint-delay", "focus-read-preempts-announcements", "scan-step", "duration",
]
let userActionKeywords = ["focus", "swipe", "activate", "type", "scan", "submit"]
let appActionKeywords = [
    "announce", "set", "debounce", "after", "screenChanged", "layoutChanged", "pageScrolled", "play", "show", "load",
    "ssip",
]
let topLevelKeywords =
    headerKeywords + ["screen", "data", "media", "on", "check", "at", "every", "wait"] + userActionKeywords
    + appActionKeywords

/// A name used somewhere that must be declared somewhere.
struct Reference {
    enum Kind: String {
        case element, load, media, table = "data table", screen
    }
    var kind: Kind
    var name: String
    var line: Int
    var column: Int
    var length: Int
}

/// Mutable state of one parse.
struct ParserState {
    let path: String
    var rawLines: [String] = []
    var diagnostics: [ScriptDiagnostic] = []
    var references: [Reference] = []

    // Header
    var title: String?
    var pattern: String?
    var variant: ScenarioVariant?
    var saysDifferent: String?
    var profile: ScenarioProfileKind = .voiceover
    var settings = ScenarioSettings()
    var seenHeader: Set<String> = []
    var titleLocation: SourceLocation?

    // Declarations
    var screens: [ScenarioScreen] = []
    var dataTables: [ScenarioDataTable] = []
    var tableKeys: [String: String] = [:]
    var media: [ScenarioMedia] = []
    var loadNames: [String] = []
    var reactions: [ScenarioReaction] = []
    var timeline: [ScenarioTimedEvent] = []
    var checks: [ScenarioCheck] = []

    // Timeline cursor
    var cursorTime = Instant.zero
    var endTime = Instant.zero

    // Limits (ScenarioLimits)
    var eventCount = 0
    var elementCount = 0
    var timeLimitReported = false

    init(path: String) { self.path = path }

    mutating func run(_ source: String) throws(ScriptDiagnostics) -> ScenarioDocument {
        var lexer = ScriptLexer(path: path)
        let lines = lexer.lex(source)
        rawLines = lexer.rawLines
        diagnostics = lexer.diagnostics
        // Blocks cut at the nesting limit would only add errors about their missing lines.
        if lexer.nestsTooDeep { throw ScriptDiagnostics(diagnostics) }
        collectTableKeys(lines)
        for line in lines {
            do throws(ParseFailure) {
                try parseTopLevel(line)
            } catch {
                report(error)
            }
        }
        validateReferences()
        checkHeader()
        if !lines.contains(where: { $0.tokens.first?.text == "screen" }) {
            report(
                ParseFailure(
                    line: 1, column: 1, length: 1, message: "the script declares no screen",
                    hint: "add a block like: screen Main, with an indented element line such as: button ok \"OK\""))
        }
        if !diagnostics.isEmpty {
            diagnostics.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            throw ScriptDiagnostics(diagnostics)
        }
        guard let title, let titleLocation else {
            throw ScriptDiagnostics(diagnostics)
        }
        if let duration = settings.duration { endTime = max(endTime, Instant.zero + duration) }
        let header = ScenarioHeader(
            title: title, pattern: pattern, variant: variant ?? .standalone, saysDifferent: saysDifferent,
            profile: profile, settings: settings, location: titleLocation)
        let sorted = timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        return ScenarioDocument(
            path: path, header: header, screens: screens, dataTables: dataTables, media: media,
            reactions: reactions, timeline: sorted, checks: checks, endTime: endTime)
    }

    // MARK: Diagnostics

    mutating func report(_ failure: ParseFailure) {
        let source = failure.line - 1 < rawLines.count && failure.line >= 1 ? rawLines[failure.line - 1] : ""
        diagnostics.append(
            ScriptDiagnostic(
                location: SourceLocation(
                    path: path, line: failure.line,
                    column: failure.column), length: failure.length, message: failure.message, hint: failure.hint,
                sourceLine: source))
    }

    func location(_ line: ScriptLine, _ token: ScriptToken?) -> SourceLocation {
        SourceLocation(path: path, line: line.number, column: token?.column ?? line.indent + 1)
    }

    mutating func reference(_ kind: Reference.Kind, _ token: ScriptToken, line: ScriptLine) {
        references.append(
            Reference(
                kind: kind, name: token.text, line: line.number, column: token.column,
                length: token.length))
    }

    /// Reports the children of a line that takes no block.
    mutating func rejectBlock(_ line: ScriptLine, keyword: String) {
        if let child = line.children.first {
            report(
                ParseFailure(
                    line: child.number, column: child.indent + 1, length: 1,
                    message: "unexpected indentation", hint: "'\(keyword)' does not open a block"))
        } else if line.opensBlock {
            report(
                ParseFailure(
                    line: line.number, column: line.colonColumn, length: 1,
                    message: "unexpected ':'", hint: "'\(keyword)' does not open a block"))
        }
    }

    /// Fails when a block opener has no indented lines.
    func requireBlock(_ line: ScriptLine, keyword: String) throws(ParseFailure) {
        guard line.children.isEmpty else { return }
        let column = line.opensBlock ? line.colonColumn : (line.tokens.last.map { $0.column + $0.length } ?? 1)
        throw ParseFailure(
            line: line.number, column: column, length: 1,
            message: "expected an indented block after '\(keyword)'",
            hint: "end the line with ':' and indent the lines that belong to it")
    }

    // MARK: Top level

    private mutating func collectTableKeys(_ lines: [ScriptLine]) {
        for line in lines where line.tokens.first?.text == "data" && line.tokens.count >= 3 {
            let key = line.tokens[2]
            if key.kind == .word {
                tableKeys[line.tokens[1].text] = key.text
            } else {
                tableKeys[line.tokens[1].text] = ""
            }
        }
        for line in lines where line.tokens.first?.text == "data" && line.tokens.count == 2 {
            tableKeys[line.tokens[1].text] = ""
        }
    }

    private mutating func parseTopLevel(_ line: ScriptLine) throws(ParseFailure) {
        let cursor = TokenCursor(line)
        guard let first = cursor.current, first.kind == .word else {
            throw cursor.failure(
                at: cursor.current,
                "expected a keyword at the start of the line, found "
                    + cursor.foundDescription)
        }
        let keyword = first.text
        if headerKeywords.contains(keyword) {
            rejectBlock(line, keyword: keyword)
            try parseHeader(line)
        } else if keyword == "screen" {
            try parseScreen(line)
        } else if keyword == "data" {
            try parseData(line)
        } else if keyword == "media" {
            try parseMedia(line)
        } else if keyword == "on" {
            try parseReaction(line)
        } else if keyword == "check" {
            try parseCheck(line)
        } else if keyword == "at" || keyword == "every" || keyword == "wait" || keyword.hasPrefix("+")
            || userActionKeywords.contains(keyword) || appActionKeywords.contains(keyword)
        {
            try parseTimedLine(line)
        } else {
            throw cursor.failure(
                at: first, "unknown keyword '\(keyword)'",
                hint: Suggestion.hint(for: keyword, among: topLevelKeywords))
        }
    }

    private mutating func parseHeader(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line)
        guard let keywordToken = cursor.advance() else { return }
        let keyword = keywordToken.text
        if seenHeader.contains(keyword) {
            throw cursor.failure(
                at: keywordToken, "duplicate header field '\(keyword)'",
                hint: "give each header field once")
        }
        seenHeader.insert(keyword)
        switch keyword {
        case "title":
            title = try cursor.string("the title").text
            titleLocation = location(line, keywordToken)
        case "pattern": pattern = try patternName(&cursor)
        case "variant":
            let token = try cursor.keyword(
                [ScenarioVariant.before.rawValue, ScenarioVariant.after.rawValue], what: "variant")
            variant = ScenarioVariant(rawValue: token.text)
        case "says-different": saysDifferent = try cursor.string("what should sound different").text
        case "profile":
            let token = try cursor.keyword(ScenarioProfileKind.allCases.map(\.rawValue), what: "profile")
            profile = ScenarioProfileKind(rawValue: token.text) ?? .voiceover
        case "network": settings.network = try cursor.word("a network name such as wifi or 3g").text.lowercased()
        case "voice":
            let token = try cursor.word("a voice profile name")
            settings.voice = token.text
            settings.voiceLocation = location(line, token)
        case "hints": settings.hints = try cursor.flag("on or off")
        case "trait-words": settings.traitWords = try cursor.flag("on or off")
        case "trait-hints": settings.traitHints = try cursor.flag("on or off")
        case "typing-feedback":
            let token = try cursor.keyword(ScenarioTypingFeedback.allCases.map(\.rawValue), what: "typing feedback")
            settings.typingFeedback = ScenarioTypingFeedback(rawValue: token.text)
        case "poll": settings.pollInterval = try cursor.period("the poll interval")
        case "hint-delay": settings.hintDelay = try cursor.span("the hint delay")
        case "focus-read-preempts-announcements": settings.focusReadPreemptsAnnouncements = try cursor.flag("on or off")
        case "scan-step": settings.scanStep = try cursor.period("the scan step time")
        case "duration": settings.duration = try cursor.span("the scenario's duration")
        default: break
        }
        try cursor.finish()
    }

    private mutating func checkHeader() {
        let missing: [(String, Bool, String)] = [
            ("title", title != nil, "title \"Search announces every keystroke\""),
            // A card's script names both; a scenario testing a rule names neither.
            ("pattern", seenHeader.contains("pattern") || !seenHeader.contains("variant"), "pattern announcement-spam"),
            ("variant", seenHeader.contains("variant") || !seenHeader.contains("pattern"), "variant before"),
        ]
        for (field, present, example) in missing where !present {
            report(
                ParseFailure(
                    line: 1, column: 1, length: 1, message: "missing header field '\(field)'",
                    hint: "add a line like: \(example)"))
        }
    }

    // MARK: Reactions

    private mutating func parseReaction(_ line: ScriptLine) throws(ParseFailure) {
        var cursor = TokenCursor(line, skipping: 1)
        let kind = try cursor.keyword(
            ["type", "activate", "focus", "submit", "change", "increment", "decrement"], what: "trigger")
        if kind.text == "type" {
            guard cursor.accept("in") else { throw cursor.failure(at: cursor.current, "expected 'in' after 'on type'") }
        }
        let idToken = try cursor.word("an element id")
        reference(.element, idToken, line: line)
        try cursor.finish()
        try requireBlock(line, keyword: "on \(kind.text)")
        let trigger: ScenarioTrigger =
            switch kind.text {
            case "type": .typeIn(element: idToken.text)
            case "activate": .activate(element: idToken.text)
            case "submit": .submit(element: idToken.text)
            case "change": .change(element: idToken.text)
            case "increment": .increment(element: idToken.text)
            case "decrement": .decrement(element: idToken.text)
            default: .focus(element: idToken.text)
            }
        let actions = parseAppActionBlock(line.children)
        reactions.append(
            ScenarioReaction(trigger: trigger, actions: actions, location: location(line, line.tokens.first)))
    }

    // MARK: Validation

    private mutating func validateReferences() {
        var known: [Reference.Kind: [String]] = [:]
        known[.element] = screens.flatMap { $0.elements.flatMap(\.allIDs) }
        known[.load] = loadNames
        known[.media] = media.map(\.name)
        known[.table] = dataTables.map(\.name)
        known[.screen] = screens.map(\.name)
        for reference in references {
            let names = known[reference.kind] ?? []
            guard !names.contains(reference.name) else { continue }
            var hint = Suggestion.hint(for: reference.name, among: names)
            if hint == nil {
                hint =
                    names.isEmpty
                    ? "no \(reference.kind.rawValue) is declared in this script"
                    : "known: \(names.prefix(12).joined(separator: ", "))"
            }
            report(
                ParseFailure(
                    line: reference.line, column: reference.column, length: reference.length,
                    message: "unknown \(reference.kind.rawValue) '\(reference.name)'", hint: hint))
        }
    }
}
