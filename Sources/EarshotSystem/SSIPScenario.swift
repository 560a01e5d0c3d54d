import EarshotCore

/// A short script of SSIP events for the conformance suite: who sends what, when.
public struct SSIPScenario: Hashable, Sendable {
    /// One event: `command` sent `at` this long after the scenario starts.
    public struct Step: Hashable, Sendable {
        /// When it is sent.
        public var at: TimeSpan
        /// What is sent (its client names the connection).
        public var command: SSIPCommand

        /// Creates a step.
        public init(at: TimeSpan, _ command: SSIPCommand) {
            self.at = at
            self.command = command
        }
    }

    /// What the scenario shows ("message arrives while text speaks").
    public var name: String
    /// The events, in time order.
    public var steps: [Step]

    /// Creates a scenario; steps are kept in time order.
    public init(_ name: String, _ steps: [Step]) {
        self.name = name
        self.steps = steps.sorted { $0.at < $1.at }
    }

    /// The texts spoken, in the order they are sent.
    public var texts: [String] {
        steps.compactMap {
            if case .speak(let text, _, _) = $0.command { return text.description }
            return nil
        }
    }
}

extension SSIPScenario {
    /// Long enough (about 2 s) to still be speaking when the next step arrives.
    static let long = "The first message keeps on speaking for a while"
    /// Short (under a second).
    static let short = "Second one"

    static func speak(_ ms: Int64, _ client: String, _ priority: SSIPPriority, _ text: String) -> Step {
        Step(at: .milliseconds(ms), .speak(TextTemplate(stringLiteral: text), priority: priority, client: client))
    }

    /// Every priority pair (a long message speaking, another arriving 600 ms later from another client), then
    /// queue rules, STOP and CANCEL, several clients and progress series.
    public static let suite: [SSIPScenario] = {
        var scenarios: [SSIPScenario] = []
        for first in SSIPPriority.allCases {
            for second in SSIPPriority.allCases {
                scenarios.append(
                    SSIPScenario(
                        "\(second.rawValue) arrives while \(first.rawValue) speaks",
                        [speak(0, "a", first, long), speak(600, "b", second, short)]))
            }
        }
        scenarios += [
            SSIPScenario(
                "text keeps only the newest while important speaks",
                [speak(0, "a", .important, long), speak(400, "b", .text, "Older text"), speak(800, "b", .text, short)]),
            SSIPScenario(
                "message waits behind message, in order",
                [
                    speak(0, "a", .message, long), speak(400, "b", .message, "Second message"),
                    speak(800, "c", .message, "Third"),
                ]),
            SSIPScenario(
                "STOP cuts the speaking client's message",
                [
                    speak(0, "a", .message, long), speak(300, "b", .message, short),
                    Step(at: .milliseconds(800), .stop(client: "a")),
                ]),
            SSIPScenario(
                "STOP from a client that is not speaking changes nothing",
                [
                    speak(0, "a", .message, long), speak(300, "b", .message, short),
                    Step(at: .milliseconds(800), .stop(client: "b")),
                ]),
            SSIPScenario(
                "CANCEL cuts the client's message and drops its queue",
                [
                    speak(0, "a", .message, long), speak(300, "a", .message, "Its queued message"),
                    speak(400, "b", .message, short), Step(at: .milliseconds(900), .cancel(client: "a")),
                ]),
            SSIPScenario(
                "a progress series speaks the current and the newest",
                [
                    speak(0, "a", .progress, long), speak(300, "a", .progress, "Forty percent"),
                    speak(600, "a", .progress, "Seventy percent"), speak(900, "a", .progress, "Ninety percent"),
                ]),
            SSIPScenario(
                "a message ends a progress series and its last value is still spoken",
                [
                    speak(0, "a", .progress, long), speak(300, "a", .progress, "Forty percent"),
                    speak(600, "a", .progress, "Seventy percent"), speak(1000, "b", .message, short),
                ]),
            SSIPScenario(
                "a notification replaces the notification speaking",
                [speak(0, "a", .notification, long), speak(500, "a", .notification, short)]),
            SSIPScenario(
                "three clients: important cuts a message, text waits",
                [
                    speak(0, "a", .message, long), speak(300, "b", .text, "Waiting text"),
                    speak(600, "c", .important, short),
                ]),
        ]
        return scenarios
    }()
}
