/// speech-dispatcher's five message priorities (SSIP `SET SELF PRIORITY`).
public enum SSIPPriority: String, Hashable, Sendable, CaseIterable {
    case important, message, text, notification, progress

    /// Queue rank: the server takes the next message from the highest priority with one waiting
    /// (`get_message_from_queues` in speech-dispatcher's `src/server/speaking.c` walks IMPORTANT → PROGRESS).
    public var rank: Int {
        switch self {
        case .important: return 5
        case .message: return 4
        case .text: return 3
        case .notification: return 2
        case .progress: return 1
        }
    }
}

/// speech-dispatcher's priority rules as data, and the one function that applies them.
///
/// Sources: speech-dispatcher's SSIP manual, section "Priority Categories" (the documented rules), and the server's
/// `resolve_priorities()` in `src/server/speaking.c` (what it does when a message arrives), with `speak()` in the same
/// file (the last message of a progress series moves to the message queue when the progress queue empties). The
/// priority system is global: messages from every client compete in the same queues.
public enum SpeechDispatcherPolicy {
    /// One row: which speaking priorities a newcomer cuts, which queued priorities it removes, and whether it is
    /// discarded when something else speaks.
    public struct Rule: Hashable, Sendable {
        /// `SD-important` ….
        public var name: String
        /// Speaking priorities the newcomer cuts.
        public var cuts: Set<SSIPPriority>
        /// Queued priorities the newcomer removes (before it is queued).
        public var removes: Set<SSIPPriority>
        /// The newcomer is discarded when anything of these priorities speaks.
        public var discardedWhileSpeaking: Set<SSIPPriority>
        /// Removed queued messages of this rule's own priority are superseded by the newcomer (keep only newest).
        public var keepsOnlyNewest: Bool
        /// The progress messages received since anything last started (the newest queued one and those it
        /// replaced) are re-filed as `message` instead of removed: the last of a series is always spoken.
        public var keepsLastProgress: Bool
    }

    /// The rule table: one row per priority.
    public static let rules: [SSIPPriority: Rule] = [
        // "never interrupted … the other message is canceled and the message with priority important is said
        // instead … postponed (message and text) … canceled (notification and progress)".
        .important: Rule(
            name: "SD-important", cuts: [.message, .text, .notification, .progress],
            removes: [.notification, .progress], discardedWhileSpeaking: [], keepsOnlyNewest: false,
            keepsLastProgress: true),
        // "said when there is no message of priority important or message waiting … doesn't interrupt itself …
        // notification, progress or text waiting or being spoken … are canceled".
        .message: Rule(
            name: "SD-message", cuts: [.text, .notification, .progress], removes: [.text, .notification, .progress],
            discardedWhileSpeaking: [], keepsOnlyNewest: false, keepsLastProgress: true),
        // "interrupts itself … only the latest of them is said"; notification and progress canceled; waits for
        // important and message (`stop_priority_except_first(SPD_TEXT)`).
        .text: Rule(
            name: "SD-text", cuts: [.text, .notification, .progress], removes: [.text, .notification, .progress],
            discardedWhileSpeaking: [], keepsOnlyNewest: true, keepsLastProgress: true),
        // "canceled if important, message, text or progress are waiting or being spoken … interrupts itself".
        .notification: Rule(
            name: "SD-notification", cuts: [.notification], removes: [.notification],
            discardedWhileSpeaking: [.important, .message, .text, .progress], keepsOnlyNewest: true,
            keepsLastProgress: false),
        // Flushes notification; while anything speaks only the newest queued progress is kept (the code keeps the
        // newcomer queued; the manual says "canceled if another message is being spoken"). The ones it replaces stay
        // in the server's last-progress block until anything starts: if important, message or text empties the
        // progress queue first, every one of them moves to the message queue (`queue_message` in `server.c` keeps
        // the block; `speak()` moves it). The conformance suite found this.
        .progress: Rule(
            name: "SD-progress", cuts: [.notification], removes: [.notification, .progress],
            discardedWhileSpeaking: [], keepsOnlyNewest: true, keepsLastProgress: false),
    ]

    /// The SSIP priority a script request becomes (see docs/readers.md for the reasons).
    public static func priority(for request: SpeechRequest) -> SSIPPriority {
        switch request {
        case .announcementHigh: return .important
        case .announcementDefault, .announcementQueued, .layoutChangeString, .pageScrolled: return .message
        case .focusMove, .screenChange, .layoutChangeElement, .valueEcho: return .text
        case .typingEcho, .hint: return .notification
        case .poll: return .progress
        }
    }

    /// Decides what happens to a message of `priority` given what the channel holds.
    public static func decide(_ priority: SSIPPriority, channel: ChannelView) -> ReaderDecision {
        guard let rule = rules[priority] else { preconditionFailure("every SSIP priority has a rule") }
        let lane = priority.rawValue
        let speaking = channel.current.flatMap { SSIPPriority(rawValue: $0.lane) }
        if let speaking, rule.discardedWhileSpeaking.contains(speaking) {
            return ReaderDecision(
                rule: rule.name, reaction: .drop(.cancelledByPriority), lane: lane, rank: priority.rank)
        }
        let drop = QueueDrop(
            lanes: Set(rule.removes.map(\.rawValue)), reason: .cancelledByPriority,
            supersedes: rule.keepsOnlyNewest ? lane : nil)
        let promote =
            rule.keepsLastProgress
            ? ReaderDecision.Promotion(
                from: SSIPPriority.progress.rawValue, to: SSIPPriority.message.rawValue, rank: SSIPPriority.message.rank
            )
            : nil
        let cuts = speaking.map { rule.cuts.contains($0) } ?? false
        return ReaderDecision(
            rule: rule.name, reaction: cuts ? .interrupt : .enqueue, drop: drop, lane: lane, rank: priority.rank,
            promote: promote, holdsRemoved: priority == .progress)
    }
}
