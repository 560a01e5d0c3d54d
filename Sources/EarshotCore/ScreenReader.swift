/// The screen reader whose speech rules a run follows. One engine runs them all: a reader changes the decisions
/// its rule table takes and its settings, never the pipeline.
public enum ScreenReader: String, Hashable, Sendable, CaseIterable {
    /// iOS VoiceOver (`VoiceOverPolicy`), the default.
    case voiceOver = "voiceover"
    /// Android TalkBack (`TalkBackPolicy`).
    case talkBack = "talkback"
    /// NVDA on Windows (`NVDAPolicy`).
    case nvda
    /// speech-dispatcher's SSIP priorities, what Orca speaks through on Linux (`SpeechDispatcherPolicy`).
    case speechDispatcher = "speech-dispatcher"

    /// The reader called `name` (`voiceover`, `talkback`, `nvda`, `speech-dispatcher`).
    public static func named(_ name: String) -> ScreenReader? { ScreenReader(rawValue: name.lowercased()) }

    /// How the reader names itself in labels ("TalkBack").
    public var displayName: String {
        switch self {
        case .voiceOver: return "VoiceOver"
        case .talkBack: return "TalkBack"
        case .nvda: return "NVDA"
        case .speechDispatcher: return "speech-dispatcher"
        }
    }
}

/// Which queued utterances a decision removes before the newcomer is filed.
public struct QueueDrop: Hashable, Sendable {
    /// Only utterances of these classes; nil for every class.
    public var lanes: Set<String>?
    /// Spare the utterances filed as uninterruptible (TalkBack: only `interrupt()` removes those).
    public var onlyInterruptible: Bool
    /// Only one client's utterances (SSIP `CANCEL`); nil for every client.
    public var client: String?
    /// The reason each removed utterance records.
    public var reason: DropReason
    /// Removed utterances of this class record `superseded` instead: the newcomer replaces them.
    public var supersedes: String?

    /// Creates a drop rule.
    public init(
        lanes: Set<String>? = nil, onlyInterruptible: Bool = false, client: String? = nil, reason: DropReason,
        supersedes: String? = nil
    ) {
        self.supersedes = supersedes
        self.lanes = lanes
        self.onlyInterruptible = onlyInterruptible
        self.client = client
        self.reason = reason
    }

    /// Everything queued.
    public static func all(_ reason: DropReason) -> QueueDrop { QueueDrop(reason: reason) }

    /// The reason `entry` records when this rule removes it.
    public func reason(for entry: ChannelEntry) -> DropReason {
        entry.lane == supersedes ? .superseded : reason
    }

    /// True when `entry` is removed by this rule.
    public func matches(_ entry: ChannelEntry) -> Bool {
        if let lanes, !lanes.contains(entry.lane) { return false }
        if onlyInterruptible, entry.uninterruptible { return false }
        if let client, entry.client != client { return false }
        return true
    }
}

/// One utterance as the channel holds it: filed in the reader's own class.
public struct ChannelEntry: Hashable, Sendable {
    /// The utterance.
    public var utterance: Utterance
    /// The reader's class for it (`message`, `NORMAL`, `announcement`, …); it names the queue it waits in.
    public var lane: String
    /// Queue order: a higher rank starts first; equal ranks start in arrival order.
    public var rank: Int
    /// True when new speech may not cut it once it speaks (or, for TalkBack, remove it from the queue).
    public var uninterruptible: Bool
    /// The speech client that sent it (SSIP connections; `reader` for the reader's own speech).
    public var client: String

    /// Creates an entry.
    public init(utterance: Utterance, lane: String, rank: Int, uninterruptible: Bool, client: String) {
        self.utterance = utterance
        self.lane = lane
        self.rank = rank
        self.uninterruptible = uninterruptible
        self.client = client
    }
}

/// What a reader's decision function sees: what speaks, what waits, and what was heard a moment ago.
public struct ChannelView: Sendable {
    /// The utterance speaking now.
    public var current: ChannelEntry?
    /// The utterances waiting, first to start first.
    public var queued: [ChannelEntry]
    /// Texts that ended (spoken or cut) recently, with how long ago, newest first.
    public var recentlyEnded: [(text: String, ago: TimeSpan)]

    /// Creates a view.
    public init(current: ChannelEntry? = nil, queued: [ChannelEntry] = [], recentlyEnded: [(String, TimeSpan)] = []) {
        self.current = current
        self.queued = queued
        self.recentlyEnded = recentlyEnded.map { (text: $0.0, ago: $0.1) }
    }

    /// An idle channel with nothing waiting.
    public static let idle = ChannelView()
}

/// What a reader does with one request: the rule applied, what happens to the newcomer, to the queue, and how the
/// newcomer is filed.
public struct ReaderDecision: Hashable, Sendable {
    /// The rule's name in the reader's table (`V1`, `TB3`, `NV2`, `SD-message`, …).
    public var rule: String
    /// What happens to the newcomer. `.speak` starts it when the channel is idle and files it otherwise;
    /// `.interrupt` cuts what speaks; `.enqueue` and `.afterCurrent` file it (by `rank`).
    public var reaction: ChannelReaction
    /// Which queued utterances are removed first.
    public var drop: QueueDrop?
    /// The newcomer's class.
    public var lane: String
    /// The newcomer's queue rank.
    public var rank: Int
    /// True when the newcomer may not be cut by new speech.
    public var uninterruptible: Bool
    /// speech-dispatcher's last-progress rule: when this decision removes queued utterances of the lane `from`
    /// received since anything last started (and any held ones), they are re-filed in lane `to` at `rank` instead,
    /// in arrival order.
    public var promote: Promotion?
    /// speech-dispatcher's progress block: queued utterances of the newcomer's class that this decision removes are
    /// held, not dropped, until anything starts; a later promotion brings them back.
    public var holdsRemoved: Bool

    /// Creates a decision.
    public init(
        rule: String, reaction: ChannelReaction, drop: QueueDrop? = nil, lane: String, rank: Int = 0,
        uninterruptible: Bool = false, promote: Promotion? = nil, holdsRemoved: Bool = false
    ) {
        self.holdsRemoved = holdsRemoved
        self.rule = rule
        self.reaction = reaction
        self.drop = drop
        self.lane = lane
        self.rank = rank
        self.uninterruptible = uninterruptible
        self.promote = promote
    }

    /// Queued utterances kept in another lane instead of being dropped.
    public struct Promotion: Hashable, Sendable {
        /// The lane whose recent utterances are kept.
        public var from: String
        /// The lane it moves to.
        public var to: String
        /// Its rank there.
        public var rank: Int

        /// Creates a promotion.
        public init(from: String, to: String, rank: Int) {
            self.from = from
            self.to = to
            self.rank = rank
        }
    }
}

extension ReaderDecision {
    /// VoiceOver's decision in the general form: `V4`/`V5` clear the whole queue; `.afterCurrent` (and `.speak`
    /// while something speaks) waits ahead of appended utterances; a `.high` announcement is uninterruptible.
    init(voiceOver decision: SpeechDecision, utterance: Utterance) {
        let waitsNext = decision.reaction == .speak || decision.reaction == .afterCurrent
        self.init(
            rule: decision.rule, reaction: decision.reaction,
            drop: decision.queue == .clear ? .all(decision.clearReason) : nil, lane: utterance.kind.rawValue,
            rank: waitsNext ? 1 : 0, uninterruptible: utterance.isUninterruptible)
    }
}

extension UserProfile {
    /// The profile's name with the reader when it is not VoiceOver and the user hears speech: `talkback`,
    /// `switch-control (nvda)`. Reports and
    /// pages use it so that every result says whose rules produced it.
    public var label: String {
        guard reader != .voiceOver, technology != .none else { return name }
        return technology == .voiceOver ? reader.rawValue : "\(name) (\(reader.rawValue))"
    }
}
