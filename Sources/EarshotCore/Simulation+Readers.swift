/// A native speech-dispatcher event a script posts directly (SSIP), for what no app event maps to.
public enum SSIPCommand: Hashable, Sendable {
    /// `SET SELF PRIORITY priority` then `SPEAK` the text, from `client`'s connection.
    case speak(TextTemplate, priority: SSIPPriority, client: String)
    /// `STOP`: the client's speaking message stops.
    case stop(client: String)
    /// `CANCEL`: the client's speaking message stops and its queued ones are dropped.
    case cancel(client: String)

    /// The connection it is sent on.
    public var client: String {
        switch self {
        case .speak(_, _, let client), .stop(let client), .cancel(let client): return client
        }
    }
}

extension Simulation {
    /// How far back the reader's duplicate check looks: the utterances that ended (spoken or cut) in the last
    /// `talkBack.duplicateWindow`, newest first. Empty for the readers that do not skip duplicates.
    func recentlyEnded() -> [(String, TimeSpan)] {
        guard profile.reader == .talkBack else { return [] }
        var ended: [(String, TimeSpan)] = []
        for record in timeline.utterances.reversed() {
            let end: Instant
            switch record.outcome {
            case .spoken(_, let at): end = at
            case .interrupted(_, let at, _): end = at
            default: continue
            }
            let ago = now - end
            if ago < profile.talkBack.duplicateWindow { ended.append((record.utterance.text, ago)) }
            if ended.count >= 16 { break }
        }
        return ended
    }

    /// Runs a native SSIP event. Only the speech-dispatcher reader hears it; under the others it is a note on the
    /// timeline, so a check can see it was posted and not heard.
    func run(_ command: SSIPCommand, context: TemplateContext) {
        guard profile.reader == .speechDispatcher, profile.technology != .none else {
            record(.app("ssip \(describe(command, context: context)) (only speech-dispatcher hears SSIP)"))
            return
        }
        record(.app("ssip \(describe(command, context: context))"))
        switch command {
        case .speak(let template, let priority, let client):
            let text = template.evaluate(in: context)
            let id = timeline.utterances.count
            let utterance = Utterance(
                id: id, text: text, kind: .announcement, cause: "ssip \(priority.rawValue) from \(client)",
                requestedAt: now)
            let requested = nextSequence()
            let (decision, effects) = channel.request(utterance, ssip: priority, client: client)
            var record = UtteranceRecord(utterance: utterance, voice: voice, rule: decision.rule)
            record.requestSequence = requested
            timeline.utterances.append(record)
            apply(effects)
        case .stop(let client):
            apply(channel.stop(client: client, dropQueued: false, cause: "ssip stop from \(client)"))
        case .cancel(let client):
            apply(channel.stop(client: client, dropQueued: true, cause: "ssip cancel from \(client)"))
        }
    }

    private func describe(_ command: SSIPCommand, context: TemplateContext) -> String {
        switch command {
        case .speak(let template, let priority, let client):
            return "\(priority.rawValue) \"\(template.evaluate(in: context))\" client \(client)"
        case .stop(let client): return "stop client \(client)"
        case .cancel(let client): return "cancel client \(client)"
        }
    }
}
