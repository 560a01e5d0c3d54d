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

extension Lowering {
    func ssip(_ event: ScenarioSSIP) -> AppAction {
        switch event {
        case .speak(let text, let priority, let client):
            return .ssip(.speak(template(text), priority: priority, client: client))
        case .stop(let client): return .ssip(.stop(client: client))
        case .cancel(let client): return .ssip(.cancel(client: client))
        }
    }
}
