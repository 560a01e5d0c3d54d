/// The kinds of speech request the profile's rule table distinguishes.
public enum SpeechRequest: String, Hashable, Sendable, CaseIterable {
    /// V1: an announcement with default priority and no queue attribute.
    case announcementDefault
    /// V2: an announcement with `.low` priority or the queue attribute.
    case announcementQueued
    /// V3: an announcement with `.high` priority.
    case announcementHigh
    /// V4: the user swiped or tapped to an element (and Switch Control's highlight, which moves the same way).
    case focusMove
    /// V5: `screenChanged`.
    case screenChange
    /// V6: `layoutChanged(element)`.
    case layoutChangeElement
    /// V8: `layoutChanged(string)`.
    case layoutChangeString
    /// V8: `pageScrolled(string)`.
    case pageScrolled
    /// V10: a poll tick found the focused `updatesFrequently` element changed.
    case poll
    /// V11: a typed character or word is echoed.
    case typingEcho
    /// V12: a hint after the hint delay.
    case hint
    /// The new value after the user adjusts or toggles a control.
    case valueEcho

    /// The request an announcement makes.
    public static func announcement(priority: Priority, queued: Bool) -> SpeechRequest {
        switch (priority, queued) {
        case (.high, _): return .announcementHigh
        case (.low, _), (_, true): return .announcementQueued
        default: return .announcementDefault
        }
    }
}

/// What the speech channel is doing when a request arrives (states I, D, H in docs/speech-model.md).
public enum ChannelState: Hashable, Sendable {
    /// I: silent.
    case idle
    /// D or H: speaking an utterance of `kind`; `interruptible` is false for H.
    case speaking(kind: UtteranceKind, interruptible: Bool)
}

/// What happens to an incoming request.
public enum ChannelReaction: Hashable, Sendable {
    /// Start it now (the channel is idle).
    case speak
    /// Cut what is speaking and start it.
    case interrupt
    /// Append it to the end of the queue.
    case enqueue
    /// Put it first in the queue: it starts when the current utterance ends.
    case afterCurrent
    /// Cut what is speaking, queue the newcomer by its rank, and start whatever is first (NVDA dropping stale focus
    /// speech: queued messages keep their place ahead of the new focus).
    case cutThenQueue
    /// Do not speak it.
    case drop(DropReason)
}

/// What happens to the utterances waiting in the queue.
public enum QueueEffect: String, Hashable, Sendable {
    case keep
    /// Everything queued is dropped.
    case clear
}

/// One row of a profile's rule table: the reaction in each channel state and the effect on the queue.
public struct SpeechRule: Hashable, Sendable {
    /// The rule's name in docs/speech-model.md (`V1` …).
    public var name: String
    /// Reaction when the channel is idle.
    public var whenIdle: ChannelReaction
    /// Reaction while an interruptible utterance speaks (state D).
    public var whenInterruptible: ChannelReaction
    /// Reaction while an uninterruptible (`.high`) announcement speaks (state H).
    public var whenUninterruptible: ChannelReaction
    /// Effect on the queue.
    public var queue: QueueEffect
    /// The drop reason used when `queue` is `.clear`.
    public var clearReason: DropReason
}

/// The decision for one request: the rule applied and its consequences.
public struct SpeechDecision: Hashable, Sendable {
    /// The rule that decided (`V1` …, or `V13` when the preemption setting dropped an announcement).
    public var rule: String
    /// What happens to the request.
    public var reaction: ChannelReaction
    /// What happens to the queue.
    public var queue: QueueEffect
    /// The reason queued utterances are dropped, when they are.
    public var clearReason: DropReason
}

/// VoiceOver's rules V1–V13 as data, and the one function that applies them.
public enum VoiceOverPolicy {
    /// The rule table (docs/speech-model.md, "VoiceOver's rules"). Each row names its rule; the page gives its source.
    public static let rules: [SpeechRequest: SpeechRule] = {
        let busy = ChannelReaction.drop(.channelBusy)
        func row(
            _ name: String, _ idle: ChannelReaction, _ d: ChannelReaction, _ h: ChannelReaction,
            _ queue: QueueEffect = .keep, _ reason: DropReason = .focusMoved
        ) -> SpeechRule {
            SpeechRule(
                name: name, whenIdle: idle, whenInterruptible: d, whenUninterruptible: h, queue: queue,
                clearReason: reason)
        }
        return [
            .announcementDefault: row("V1", .speak, .interrupt, .afterCurrent),
            .announcementQueued: row("V2", .speak, .enqueue, .enqueue),
            .announcementHigh: row("V3", .speak, .interrupt, .afterCurrent),
            .focusMove: row("V4", .speak, .interrupt, .afterCurrent, .clear, .focusMoved),
            .screenChange: row("V5", .speak, .interrupt, .afterCurrent, .clear, .screenChanged),
            .layoutChangeElement: row("V6", .speak, .interrupt, .afterCurrent),
            .layoutChangeString: row("V8", .speak, .interrupt, .afterCurrent),
            .pageScrolled: row("V8", .speak, .interrupt, .afterCurrent),
            .poll: row("V10", .speak, busy, busy),
            .typingEcho: row("V11", .speak, .interrupt, .afterCurrent),
            .hint: row("V12", .speak, busy, busy),
            .valueEcho: row("V11", .speak, .interrupt, .afterCurrent),
        ]
    }()

    /// Decides what happens to `request` given what the channel is doing.
    public static func decide(
        _ request: SpeechRequest, channel: ChannelState, settings: VoiceOverSettings
    ) -> SpeechDecision {
        guard let rule = rules[request] else {
            preconditionFailure("every SpeechRequest has a rule")
        }
        switch channel {
        case .idle:
            return SpeechDecision(
                rule: rule.name, reaction: rule.whenIdle, queue: rule.queue, clearReason: rule.clearReason)
        case .speaking(let kind, let interruptible):
            // V13 covers what V1 covers: announcements and the V8 strings that behave as V1.
            let isAnnouncement = [.announcementDefault, .announcementHigh, .layoutChangeString, .pageScrolled]
                .contains(request)
            let readsElement: Set<UtteranceKind> = [.focusRead, .screenChange, .layoutChange]
            if interruptible, isAnnouncement, settings.focusReadPreemptsAnnouncements, readsElement.contains(kind) {
                return SpeechDecision(
                    rule: "V13", reaction: .drop(.focusReadPreempted), queue: .keep, clearReason: rule.clearReason)
            }
            let reaction = interruptible ? rule.whenInterruptible : rule.whenUninterruptible
            return SpeechDecision(rule: rule.name, reaction: reaction, queue: rule.queue, clearReason: rule.clearReason)
        }
    }
}
