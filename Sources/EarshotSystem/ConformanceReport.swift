import EarshotCore

/// The conformance suite's results as a table and a summary a person reads, and the timing figures tests check.
public struct ConformanceReport: Sendable {
    /// Every scenario compared.
    public var results: [ConformanceResult]
    /// The median send→BEGIN latency measured on the server.
    public var medianLatency: TimeSpan
    /// The spread of that latency: the server's start jitter.
    public var latencyJitter: TimeSpan
    /// The largest spread of one text's measured length.
    public var durationJitter: TimeSpan
    /// send→BEGIN of an `important` message cutting another, each calibration round.
    public var cutLatencies: [TimeSpan]
    /// END→BEGIN between a message and the next queued one, each calibration round.
    public var handovers: [TimeSpan]

    /// Creates a report.
    public init(
        results: [ConformanceResult], medianLatency: TimeSpan, latencyJitter: TimeSpan, durationJitter: TimeSpan,
        cutLatencies: [TimeSpan] = [], handovers: [TimeSpan] = []
    ) {
        self.results = results
        self.medianLatency = medianLatency
        self.latencyJitter = latencyJitter
        self.durationJitter = durationJitter
        self.cutLatencies = cutLatencies
        self.handovers = handovers
    }

    /// How far a start that happens on arrival may be from the prediction: the slowest measured start (idle or
    /// cutting another message) plus the idle start's jitter.
    public var arrivalTolerance: TimeSpan {
        (cutLatencies.max() ?? .zero) + latencyJitter
    }

    /// How far a start after another message ends may be: the slowest measured handover plus twice the length
    /// jitter (the message before it and its own predecessor's measurement).
    public var handoverTolerance: TimeSpan {
        (handovers.max() ?? .zero) + durationJitter * 2
    }

    /// The middle value of `spans` by magnitude.
    public static func medianMagnitude(_ spans: [TimeSpan]) -> TimeSpan {
        let sorted = spans.map { TimeSpan(nanoseconds: abs($0.nanoseconds)) }.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    /// Observed minus predicted start, less the median latency, of every message both started.
    public func startDifferences(onArrival: Bool) -> [TimeSpan] {
        results.flatMap(\.messages).filter { $0.startsOnArrival == onArrival }.compactMap { message in
            guard let observed = message.observedStart, let predicted = message.predictedStart else { return nil }
            return observed - predicted - medianLatency
        }
    }

    /// For every message both cut: server words started minus Earshot's.
    public var cutWordDifferences: [Int] {
        results.flatMap(\.messages).compactMap { message in
            guard let predicted = message.predictedWords, let observed = message.observedWords else { return nil }
            return observed - predicted
        }
    }

    /// How many messages' outcomes agree, of how many.
    public var outcomeAgreement: (agree: Int, total: Int) {
        let messages = results.flatMap(\.messages)
        return (messages.filter { $0.predicted == $0.observed }.count, messages.count)
    }

    /// One line per scenario: whether it agrees, each message as `priority "text" predicted/observed`, the orders.
    public var table: String {
        var rows: [[String]] = [["", "SCENARIO", "MESSAGES (earshot / server)", "STARTS earshot→server (Δ − latency)"]]
        for result in results {
            let messages = result.messages.map { message -> String in
                var fate =
                    message.predicted == message.observed
                    ? message.predicted.rawValue : "\(message.predicted.rawValue) / \(message.observed.rawValue) ✘"
                if let predicted = message.predictedWords, let observed = message.observedWords {
                    fate += " at word \(predicted) / \(observed)"
                }
                return "\(message.priority.rawValue) \"\(message.text.prefix(18))\" \(fate)"
            }.joined(separator: "; ")
            let deltas = result.messages.compactMap { message -> String? in
                guard let observed = message.observedStart, let predicted = message.predictedStart else { return nil }
                return "\(predicted)→\(observed) (\((observed - predicted - medianLatency).formatted))"
            }.joined(separator: " ")
            let order = result.predictedOrder == result.observedOrder ? "" : "  order ✘ server: \(result.observedOrder)"
            rows.append([result.agrees ? "✔" : "✘", result.scenario, messages + order, deltas])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// Where cuts landed: how many messages both cut, and how many at the same word (index marks) or one off.
    public var cutSummary: String {
        let differences = cutWordDifferences
        guard !differences.isEmpty else { return "none" }
        let same = differences.filter { $0 == 0 }.count
        let near = differences.filter { abs($0) <= 1 }.count
        return "\(differences.count) messages cut by both; at the same word \(same), within one word \(near)"
    }

    /// The totals: scenarios agreeing, messages agreeing, and the timing figures.
    public var summary: String {
        let agreeing = results.filter(\.agrees).count
        let outcomes = outcomeAgreement
        func describe(_ spans: [TimeSpan], within tolerance: TimeSpan) -> String {
            let sorted = spans.map { TimeSpan(nanoseconds: abs($0.nanoseconds)) }.sorted()
            guard let worst = sorted.last else { return "none" }
            let inside = sorted.filter { $0 <= tolerance }.count
            return "\(sorted.count) starts, median |Δ| \(sorted[sorted.count / 2]), max \(worst); "
                + "\(inside) of \(sorted.count) within \(tolerance)"
        }
        let cuts = cutLatencies.map(\.formatted).joined(separator: ", ")
        let gaps = handovers.map(\.formatted).joined(separator: ", ")
        return """
            \(agreeing) of \(results.count) scenarios agree (outcome of every message and the order); \
            \(outcomes.agree) of \(outcomes.total) messages' outcomes agree.
            server: send→BEGIN latency median \(medianLatency), jitter \(latencyJitter); \
            length jitter \(durationJitter) (each text spoken alone twice); a cut-and-start took \(cuts); \
            END→next BEGIN took \(gaps).
            starts on arrival: \(describe(startDifferences(onArrival: true), within: arrivalTolerance)).
            starts after another message ends: \(describe(startDifferences(onArrival: false), within: handoverTolerance)).
            cuts: \(cutSummary).

            """
    }
}
