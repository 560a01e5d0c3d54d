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
    /// The entry speaking now, filed in the reader's class.
    public private(set) var currentEntry: ChannelEntry?
    /// The entries waiting, first to start first (highest rank, then arrival order).
    public private(set) var entries: [ChannelEntry] = []
    /// speech-dispatcher's last progress block: progress utterances received since anything last started.
    private var block: Set<UtteranceID> = []
    /// Block members a newer progress utterance took out of the queue; dropped when anything starts.
    private var held: [ChannelEntry] = []

    /// Creates an idle channel.
    public init() {}

    /// The utterance speaking now.
    public var current: Utterance? { currentEntry?.utterance }
    /// Utterances waiting, first to start first.
    public var queue: [Utterance] { entries.map(\.utterance) }

    /// The state VoiceOver's rule table looks at.
    public var state: ChannelState {
        guard let currentEntry else { return .idle }
        return .speaking(kind: currentEntry.utterance.kind, interruptible: !currentEntry.uninterruptible)
    }

    /// What the other readers' decision functions look at.
    public func view(recentlyEnded: [(String, TimeSpan)] = []) -> ChannelView {
        ChannelView(current: currentEntry, queued: entries, recentlyEnded: recentlyEnded)
    }

    /// Handles a request under VoiceOver's rules.
    public mutating func request(
        _ utterance: Utterance, as request: SpeechRequest, settings: VoiceOverSettings
    ) -> (decision: SpeechDecision, effects: [ChannelEffect]) {
        let decision = VoiceOverPolicy.decide(request, channel: state, settings: settings)
        return (decision, apply(ReaderDecision(voiceOver: decision, utterance: utterance), to: utterance))
    }

    /// Handles a request under `profile`'s reader; `client` names who sent it (SSIP), `recentlyEnded` what was
    /// heard a moment ago (TalkBack's duplicate window).
    public mutating func request(
        _ utterance: Utterance, as request: SpeechRequest, profile: UserProfile, client: String = "reader",
        recentlyEnded: [(String, TimeSpan)] = []
    ) -> (decision: ReaderDecision, effects: [ChannelEffect]) {
        let decision: ReaderDecision
        switch profile.reader {
        case .voiceOver:
            let voiceOver = VoiceOverPolicy.decide(request, channel: state, settings: profile.voiceOver)
            decision = ReaderDecision(voiceOver: voiceOver, utterance: utterance)
        case .talkBack:
            decision = TalkBackPolicy.decide(
                request, text: utterance.text, channel: view(recentlyEnded: recentlyEnded), settings: profile.talkBack)
        case .nvda:
            decision = NVDAPolicy.decide(request, channel: view(), settings: profile.nvda)
        case .speechDispatcher:
            decision = SpeechDispatcherPolicy.decide(
                SpeechDispatcherPolicy.priority(for: request), channel: view())
        }
        return (decision, apply(decision, to: utterance, client: client))
    }

    /// Handles a native SSIP message: `priority` as the client sent it.
    public mutating func request(
        _ utterance: Utterance, ssip priority: SSIPPriority, client: String
    ) -> (decision: ReaderDecision, effects: [ChannelEffect]) {
        let decision = SpeechDispatcherPolicy.decide(priority, channel: view())
        return (decision, apply(decision, to: utterance, client: client))
    }

    /// Carries out a decision: the queue drop first, then the newcomer's reaction.
    public mutating func apply(_ decision: ReaderDecision, to utterance: Utterance, client: String = "reader")
        -> [ChannelEffect]
    {
        var effects: [ChannelEffect] = []
        var promotedRank: Int?
        if let drop = decision.drop {
            var kept: [ChannelEntry] = []
            var promoted: [ChannelEntry] = []
            for entry in entries {
                guard drop.matches(entry) else {
                    kept.append(entry)
                    continue
                }
                let inBlock = block.contains(entry.utterance.id)
                if let promotion = decision.promote, entry.lane == promotion.from, inBlock {
                    promoted.append(entry)
                } else if decision.holdsRemoved, entry.lane == decision.lane, inBlock {
                    held.append(entry)
                } else {
                    effects.append(.drop(entry.utterance, reason: drop.reason(for: entry), by: utterance.id))
                }
            }
            if let promotion = decision.promote {
                promoted += held.filter { $0.lane == promotion.from }
                held.removeAll { $0.lane == promotion.from }
                for var entry in promoted {
                    entry.lane = promotion.to
                    entry.rank = promotion.rank
                    kept.append(entry)
                    promotedRank = promotion.rank
                }
            }
            entries = []
            for entry in kept { file(entry) }
        }
        if decision.holdsRemoved { block.insert(utterance.id) }
        let entry = ChannelEntry(
            utterance: utterance, lane: decision.lane, rank: decision.rank, uninterruptible: decision.uninterruptible,
            client: client)
        switch decision.reaction {
        case .speak:
            if currentEntry == nil {
                currentEntry = entry
                effects.append(.start(utterance))
            } else {
                file(entry)
            }
        case .interrupt:
            if let current {
                effects.append(
                    .cut(current, by: Interruption(utterance: utterance.id, description: utterance.shortName)))
            }
            if let promotedRank, promotedRank >= entry.rank {
                // Promoted messages are older: at the newcomer's rank or above they speak first, and it waits.
                currentEntry = nil
                file(entry)
                effects += startNext()
            } else {
                currentEntry = entry
                effects.append(.start(utterance))
            }
        case .cutThenQueue:
            if let current {
                effects.append(
                    .cut(current, by: Interruption(utterance: utterance.id, description: utterance.shortName)))
            }
            currentEntry = nil
            file(entry)
            effects += startNext()
        case .enqueue, .afterCurrent:
            if currentEntry == nil, let promotedRank, promotedRank >= entry.rank {
                file(entry)
                effects += startNext()
            } else if currentEntry == nil {
                currentEntry = entry
                effects.append(.start(utterance))
            } else {
                file(entry)
            }
        case .drop(let reason):
            effects.append(.drop(utterance, reason: reason, by: current?.id))
        }
        if effects.contains(where: { if case .start = $0 { true } else { false } }) { effects += blockEnds() }
        return effects
    }

    /// Something started: the progress block ends, and what it still held is dropped.
    private mutating func blockEnds() -> [ChannelEffect] {
        let effects = held.map { ChannelEffect.drop($0.utterance, reason: .superseded, by: nil) }
        held.removeAll()
        block.removeAll()
        return effects
    }

    /// Starts the first queued entry, if any.
    private mutating func startNext() -> [ChannelEffect] {
        guard !entries.isEmpty else { return [] }
        let next = entries.removeFirst()
        currentEntry = next
        return [.start(next.utterance)]
    }

    /// Puts `entry` behind every entry of its rank or higher, ahead of lower ranks.
    private mutating func file(_ entry: ChannelEntry) {
        let index =
            entries.firstIndex {
                $0.rank < entry.rank || ($0.rank == entry.rank && $0.utterance.id > entry.utterance.id)
            } ?? entries.endIndex
        entries.insert(entry, at: index)
    }

    /// The current utterance ended on its own: start the next queued one.
    public mutating func currentFinished() -> [ChannelEffect] {
        currentEntry = nil
        let effects = startNext()
        return effects.isEmpty ? [] : effects + blockEnds()
    }

    /// V5 with nothing to read: cuts the current utterance unless it is uninterruptible, and drops the queue.
    public mutating func flush(cause: String, reason: DropReason) -> [ChannelEffect] {
        var effects = entries.map { ChannelEffect.drop($0.utterance, reason: reason, by: nil) }
        entries.removeAll()
        if let currentEntry, !currentEntry.uninterruptible {
            effects.insert(.cut(currentEntry.utterance, by: Interruption(utterance: nil, description: cause)), at: 0)
            self.currentEntry = nil
        }
        return effects
    }

    /// SSIP `STOP` (with `dropQueued` false) and `CANCEL` (true) from `client`: its speaking message is cut;
    /// `CANCEL` also drops its queued ones. Other clients' speech is untouched.
    public mutating func stop(client: String, dropQueued: Bool, cause: String) -> [ChannelEffect] {
        var effects: [ChannelEffect] = []
        var stopped = false
        if let currentEntry, currentEntry.client == client {
            effects.append(.cut(currentEntry.utterance, by: Interruption(utterance: nil, description: cause)))
            self.currentEntry = nil
            stopped = true
        }
        if dropQueued {
            effects += entries.filter { $0.client == client }.map {
                .drop($0.utterance, reason: .clientCancelled, by: nil)
            }
            entries.removeAll { $0.client == client }
        }
        if stopped { effects += currentFinished() }
        return effects
    }

    /// Stops everything (end of scenario, Ctrl-C): cuts the current utterance and drops the queue.
    public mutating func stopAll(cause: String, reason: DropReason) -> [ChannelEffect] {
        var effects: [ChannelEffect] = []
        if let current { effects.append(.cut(current, by: Interruption(utterance: nil, description: cause))) }
        effects += (entries + held).map { .drop($0.utterance, reason: reason, by: nil) }
        currentEntry = nil
        entries.removeAll()
        held.removeAll()
        block.removeAll()
        return effects
    }
}
