/// What the speech channel asks its driver to do.
public enum ChannelEffect: Hashable, Sendable {
    /// Start speaking this utterance now.
    case start(Utterance)
    /// Stop this utterance now; `by` says who cut it.
    case cut(Utterance, by: Interruption)
    /// This utterance will never start.
    case drop(Utterance, reason: DropReason, by: UtteranceID?)
}

/// The speech channel and its queue as a pure state machine: requests and completions in, effects out.
///
/// Flow of control (model: NVDA's `speech/manager.py`):
/// 1. A request arrives with the channel's state; the profile's one decision function picks a rule.
/// 2. The rule's queue effect runs first: a focus move or screen change drops everything queued.
/// 3. The rule's reaction runs: speak now, cut the current utterance and speak, append to the queue, wait
///    behind the current utterance ahead of appended ones (in arrival order), or drop the request.
/// 4. When the driver reports that the current utterance ended, the first queued one starts.
/// 5. The driver performs each effect (records outcomes, schedules the end from the synthesizer's duration,
///    cancels a pending hint, sends `announcementDidFinish`). The channel never reads a clock.
public struct SpeechChannel: Sendable {
    /// The utterance speaking now.
    public private(set) var current: Utterance?
    /// Utterances waiting, first to start first.
    public private(set) var queue: [Utterance] = []
    /// How many utterances at the front of the queue wait "next" (behind the current one, ahead of appended
    /// ones), in the order they arrived — NVDA's NEXT queue before its NORMAL one.
    private var nextCount = 0

    /// Creates an idle channel.
    public init() {}

    /// The state the rule table looks at.
    public var state: ChannelState {
        guard let current else { return .idle }
        return .speaking(kind: current.kind, interruptible: !current.isUninterruptible)
    }

    /// Handles a request; returns the decision taken and the effects to perform, in order.
    public mutating func request(
        _ utterance: Utterance, as request: SpeechRequest, settings: VoiceOverSettings
    ) -> (decision: SpeechDecision, effects: [ChannelEffect]) {
        let decision = VoiceOverPolicy.decide(request, channel: state, settings: settings)
        var effects: [ChannelEffect] = []
        if decision.queue == .clear {
            effects += queue.map { .drop($0, reason: decision.clearReason, by: utterance.id) }
            queue.removeAll()
            nextCount = 0
        }
        switch decision.reaction {
        case .speak:
            if current == nil {
                current = utterance
                effects.append(.start(utterance))
            } else {
                waitNext(utterance)
            }
        case .interrupt:
            if let current {
                effects.append(
                    .cut(current, by: Interruption(utterance: utterance.id, description: utterance.shortName)))
            }
            current = utterance
            effects.append(.start(utterance))
        case .enqueue:
            queue.append(utterance)
        case .afterCurrent:
            waitNext(utterance)
        case .drop(let reason):
            effects.append(.drop(utterance, reason: reason, by: current?.id))
        }
        return (decision, effects)
    }

    private mutating func waitNext(_ utterance: Utterance) {
        queue.insert(utterance, at: nextCount)
        nextCount += 1
    }

    /// The current utterance ended on its own: start the next queued one.
    public mutating func currentFinished() -> [ChannelEffect] {
        current = nil
        guard !queue.isEmpty else { return [] }
        nextCount = max(0, nextCount - 1)
        let next = queue.removeFirst()
        current = next
        return [.start(next)]
    }

    /// V5 with nothing to read: cuts the current utterance unless it is uninterruptible, and drops the queue.
    public mutating func flush(cause: String, reason: DropReason) -> [ChannelEffect] {
        var effects = queue.map { ChannelEffect.drop($0, reason: reason, by: nil) }
        queue.removeAll()
        nextCount = 0
        if let current, !current.isUninterruptible {
            effects.insert(.cut(current, by: Interruption(utterance: nil, description: cause)), at: 0)
            self.current = nil
        }
        return effects
    }

    /// Stops everything (end of scenario, Ctrl-C): cuts the current utterance and drops the queue.
    public mutating func stopAll(cause: String, reason: DropReason) -> [ChannelEffect] {
        var effects: [ChannelEffect] = []
        if let current { effects.append(.cut(current, by: Interruption(utterance: nil, description: cause))) }
        effects += queue.map { .drop($0, reason: reason, by: nil) }
        current = nil
        queue.removeAll()
        nextCount = 0
        return effects
    }
}
