import EarshotCore

/// A native speech-dispatcher event in a script: `ssip PRIORITY "text" [client NAME]`, `ssip stop|cancel
/// [client NAME]`. Only the speech-dispatcher reader hears it.
public enum ScenarioSSIP: Hashable, Sendable {
    /// A message sent with a priority from a client's connection.
    case speak(ScenarioTemplate, priority: SSIPPriority, client: String)
    /// `STOP` from a client.
    case stop(client: String)
    /// `CANCEL` from a client.
    case cancel(client: String)

    /// The client a native SSIP line speaks for when it names none.
    public static let defaultClient = "app"
}

extension ParserState {
    /// Parses what follows `ssip`.
    mutating func parseSSIP(_ cursor: inout TokenCursor, line: ScriptLine) throws(ParseFailure) -> ScenarioSSIP {
        let words = SSIPPriority.allCases.map(\.rawValue) + ["stop", "cancel"]
        let verb = try cursor.keyword(words, what: "SSIP priority or command")
        var text: ScenarioTemplate?
        if let priority = SSIPPriority(rawValue: verb.text) {
            text = try template(&cursor, line: line, what: "the \(priority.rawValue) message")
        }
        var client = ScenarioSSIP.defaultClient
        if cursor.accept("client") { client = try cursor.word("a client name").text }
        if let text, let priority = SSIPPriority(rawValue: verb.text) {
            return .speak(text, priority: priority, client: client)
        }
        return verb.text == "stop" ? .stop(client: client) : .cancel(client: client)
    }
}

extension ParserState {
    /// `under READER…` after a check's name: the readers the check is for (`talkback`, `nvda`, …; commas allowed).
    mutating func parseCheckReaders(_ cursor: inout TokenCursor) throws(ParseFailure) -> [ScreenReader]? {
        guard cursor.accept("under") else { return nil }
        var readers: [ScreenReader] = []
        let names = ScreenReader.allCases.map(\.rawValue)
        while let token = cursor.current, token.kind == .word {
            cursor.advance()
            for name in token.text.split(separator: ",").map(String.init) {
                guard let reader = ScreenReader.named(name) else {
                    throw cursor.failure(
                        at: token, "unknown screen reader '\(name)'",
                        hint: Suggestion.hint(for: name, among: names) ?? "readers: \(names.joined(separator: ", "))")
                }
                if !readers.contains(reader) { readers.append(reader) }
            }
        }
        guard !readers.isEmpty else {
            throw cursor.failure(
                at: cursor.current, "expected a screen reader after 'under'", hint: "write: under talkback")
        }
        return readers
    }
}

extension ScenarioCheck {
    /// True when the check is for `reader` (a check that names no reader is for all).
    public func applies(to reader: ScreenReader) -> Bool { readers?.contains(reader) ?? true }

    /// The name as results show it: with the readers it is for, when it names them.
    public var nameUnderReaders: String {
        guard let readers else { return name }
        return name + " (under " + readers.map(\.displayName).joined(separator: ", ") + ")"
    }
}

extension Lowering {
    func ssip(_ event: ScenarioSSIP, at location: SourceLocation) -> AppAction {
        switch event {
        case .speak(let text, let priority, let client):
            return .ssip(.speak(template(text, at: location), priority: priority, client: client))
        case .stop(let client): return .ssip(.stop(client: client))
        case .cancel(let client): return .ssip(.cancel(client: client))
        }
    }
}
